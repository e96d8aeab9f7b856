import Foundation
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// Bytes per sample of every data profile's dataset (the queries suite's CSV of each shape),
/// imported into a new store: the whole file, its sample pages and rollups, and the sample
/// pages beside pcodec's bytes on the same columns (issue 35, points 1 and 4).
enum ProfileSizes {
    /// One line per profile, in `DataProfile`'s order; the random profile's shape is drawn
    /// from `profileSeed`.
    static func run(
        directory: URL, days: Int, endDate: LocalDate, zone: TimeZone, profileSeed: UInt64
    ) async throws -> String {
        var lines = [
            "data profile   samples   file B/s  sample pages  rollups  beside pcodec"
        ]
        for profile in DataProfile.allCases {
            let csv = try DatasetFile.write(
                "sizes-\(profile.rawValue).csv", in: directory, days: days, endDate: endDate,
                zone: zone, profile: profile, profileSeed: profileSeed)
            let store = try WritePathBenchmark.freshStore(
                "sizes-\(profile.rawValue)", in: directory, durability: .none, zone: zone)
            let samples = try await Importer(store: store).importFile(at: csv).samplesRead
            let footprint = try store.footprint()
            let count = Double(max(samples, 1))
            lines.append(
                profile.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + String(
                        format: "%9d   %8.3f  %12.3f  %7.3f  ", samples,
                        Double(footprint.fileBytes) / count, Double(footprint.sampleBytes) / count,
                        Double(footprint.rollupBytes) / count)
                    + PcodecPeer.report(csv: csv, store: store, samples: samples))
            await store.close()
            try? FileManager.default.removeItem(at: store.directory)
            try? FileManager.default.removeItem(atPath: csv)
        }
        lines.append(
            "B/s = bytes per sample; file = the whole data file (free and LMDB pages included); targets: sample pages ≤ 1.10× pcodec on every profile, the irregular L file ≤ 4.6 B/s"
        )
        return lines.joined(separator: "\n")
    }
}
