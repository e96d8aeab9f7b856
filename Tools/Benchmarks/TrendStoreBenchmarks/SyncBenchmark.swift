import Foundation
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// The change feed and apply on a store of the dataset: the feed from no anchor and its
/// bytes per sample beside the store's, apply into an empty store, and the cost of
/// `changes(since:)` for one new sample (the figure that must not grow with the store).
enum SyncBenchmark {
    static func run(
        directory: URL, days: Int, endDate: LocalDate, zone: TimeZone, profile: DataProfile,
        profileSeed: UInt64, runs: Int
    ) async throws -> String {
        let csv = try DatasetFile.write(
            "sync-data.csv", in: directory, days: days, endDate: endDate, zone: zone,
            profile: profile, profileSeed: profileSeed)
        let store = try WritePathBenchmark.freshStore(
            "sync-source", in: directory, durability: .none, zone: zone)
        let imported = try await Importer(store: store).importFile(at: csv)
        let footprint = try store.footprint()

        var began = BenchClock.now()
        let changes = try store.changes(since: nil)
        let feed = BenchClock.seconds(since: began)
        began = BenchClock.now()
        let bytes = try changes.encoded()
        let encode = BenchClock.seconds(since: began)
        began = BenchClock.now()
        let decoded = try ChangeSet(encoded: bytes)
        let decode = BenchClock.seconds(since: began)
        let target = try WritePathBenchmark.freshStore(
            "sync-target", in: directory, durability: .none, zone: zone)
        began = BenchClock.now()
        let applied = try await target.apply(decoded)
        let apply = BenchClock.seconds(since: began)
        guard applied.samplesWritten == changes.sampleCount else {
            throw BenchmarkError(
                "apply wrote \(applied.samplesWritten) of \(changes.sampleCount) samples")
        }

        // One new sample, then the feed after the anchor before it.
        let unit = try store.unit(of: "activeEnergy") ?? "kcal"
        var anchor = try store.changeAnchor()
        var next = endDate.dayNumber * 86_400_000 + 86_400_000
        var micros: [Double] = []
        for _ in 0..<runs {
            try await store.write(
                [Sample(startMilliseconds: next, endMilliseconds: next + 60_000, value: 1)],
                to: "activeEnergy", unit: unit)
            next += 60_000
            let start = BenchClock.now()
            let one = try store.changes(since: anchor)
            micros.append(Double(BenchClock.now() - start) / 1_000)
            guard one.sampleCount == 1 else {
                throw BenchmarkError("the feed gave \(one.sampleCount) samples for 1")
            }
            anchor = one.anchor
        }
        let timing = BenchClock.Timing(micros)
        let samples = Double(changes.sampleCount)
        func rate(_ seconds: Double) -> String {
            String(format: "%.2fM samples/s", samples / seconds / 1e6)
        }
        func perSample(_ value: Int) -> String { String(format: "%.2f B", Double(value) / samples) }
        return """
            sync, \(profile.rawValue), \(imported.samplesRead) samples imported
            | figure | value |
            |---|---|
            | feed from no anchor | \(rate(feed)) |
            | encode / decode | \(rate(encode)) / \(rate(decode)) |
            | apply into an empty store (durability none) | \(rate(apply)) |
            | change-set bytes per sample | \(perSample(bytes.count)) |
            | store's sample pages per sample | \(perSample(footprint.sampleBytes)) |
            | change log's pages per sample | \(perSample(footprint.changeLogBytes)) |
            | changes(since:) after one new sample, median / p99 | \(String(format: "%.1f / %.1f µs", timing.median, timing.p99)) |
            """
    }
}

extension TrendStoreBenchmarks {
    /// The sync suite on this run's dataset and profile.
    func syncReport(in directory: URL) async throws -> String {
        try await SyncBenchmark.run(
            directory: directory, days: size.days, endDate: Self.endDate, zone: zone,
            profile: profile, profileSeed: profileSeed, runs: iterations)
    }
}
