import Foundation
import TrendStore
import TrendStoreGenerator

/// Single-sample commits of a data profile's own samples as they arrive: the profile's
/// dataset in a store, the last samples held back and written one per transaction in
/// arrival order (each series' samples in the order the generator emits them, so the
/// irregular and random profiles' late samples land behind newer ones), in each
/// durability mode, beside SQLite inserting the same rows in WAL mode.
enum ProfileWrites {
    /// One sample as it arrives: its series and when its series' stream reached it.
    private struct Arrival {
        let series: String
        let unit: String
        let kind: SeriesKind?
        let sample: Sample
        /// The newest end its series had emitted by then: a late sample arrives after the
        /// newer one before it.
        let clock: Int64
    }

    /// Runs the section for `profile` in stores created in `zone`, `runs` commits a mode.
    static func run(
        directory: URL, profile: DataProfile, profileSeed: UInt64, endDate: LocalDate,
        zone: TimeZone, runs: Int, report: inout Report
    ) async throws {
        let arrivals = self.arrivals(
            profile: profile, profileSeed: profileSeed, endDate: endDate, zone: zone)
        let held = min(runs + 1, arrivals.count / 2)
        let preload = arrivals.dropLast(held)
        let timed = Array(arrivals.suffix(held))
        let late = zip(timed.dropFirst(), timed).filter {
            $0.0.sample.startMilliseconds < $0.1.sample.startMilliseconds
        }.count
        print(
            "writes of the \(profile.rawValue) profile: \(preload.count) samples stored, then \(timed.count) one-sample commits in arrival order (\(late) start before the one committed before them)"
        )
        for mode in [Durability.full, .normal, .none] {
            let synchronous = ["full": "FULL", "normal": "NORMAL", "none": "OFF"][mode.rawValue]!
            let name = "profile-writes-\(mode.rawValue)"
            try await load(
                preload,
                into: try WritePathBenchmark.freshStore(
                    name, in: directory, durability: .none, zone: zone))
            let committing = try WritePathBenchmark.freshStore(
                name, in: directory, durability: mode, zone: zone, replacing: false)
            let sqlite = try SQLiteAppends(
                path: directory.appendingPathComponent("profile-writes-\(mode.rawValue).sqlite")
                    .path,
                synchronous: synchronous, preload: preload.map { ($0.series, $0.sample) })
            var next = 0
            let bytesBefore = WritePathBenchmark.writtenBytes()
            let ours = try await BenchClock.time(timed.count - 1) {
                defer { next += 1 }
                let arrival = timed[next]
                try await committing.write(
                    [arrival.sample], to: arrival.series, unit: arrival.unit, kind: arrival.kind)
            }
            let bytesPerCommit =
                Double(WritePathBenchmark.writtenBytes() - bytesBefore)
                / Double(timed.count)
            var sqliteNext = 0
            let theirs = try BenchClock.time(timed.count - 1) {
                defer { sqliteNext += 1 }
                try sqlite.append(timed[sqliteNext].sample, to: timed[sqliteNext].series)
            }
            let suffix = "\(mode.rawValue) | SQLite \(synchronous)"
            report.add(
                "\(profile.rawValue) arrivals, 1-sample write, \(suffix)", trendStore: ours,
                sqliteSQL: theirs.median, unit: .microseconds)
            report.add(
                "  KiB written per commit, \(suffix)", trendStore: bytesPerCommit / 1024,
                unit: .plain)
        }
    }

    /// The profile's samples in arrival order: two weeks to `endDate` (two years of the
    /// sparse profile, so it has commits to time).
    private static func arrivals(
        profile: DataProfile, profileSeed: UInt64, endDate: LocalDate, zone: TimeZone
    ) -> [Arrival] {
        var configuration = DatasetGenerator.Configuration(
            days: profile == .sparse ? 730 : 14, endDate: endDate)
        configuration.seed = 7
        configuration.timeZone = zone
        profile.configure(&configuration, seed: profileSeed)
        var arrivals: [Arrival] = []
        var clocks: [String: Int64] = [:]
        DatasetGenerator(configuration).generate { part in
            for sample in part.samples {
                let clock = max(clocks[part.series] ?? .min, sample.endMilliseconds)
                clocks[part.series] = clock
                arrivals.append(
                    Arrival(
                        series: part.series, unit: part.unit, kind: part.kind, sample: sample,
                        clock: clock))
            }
        }
        return arrivals.enumerated().sorted {
            ($0.element.clock, $0.offset) < ($1.element.clock, $1.offset)
        }.map(\.element)
    }

    /// Writes `arrivals` into `store` in transactions of up to 200,000 samples.
    private static func load(
        _ arrivals: ArraySlice<Arrival>, into store: TrendStore
    ) async throws {
        var parts: [String: SeriesSamples] = [:]
        for (index, arrival) in zip(1..., arrivals) {
            parts[
                arrival.series,
                default: SeriesSamples(
                    series: arrival.series, unit: arrival.unit, kind: arrival.kind, samples: [])
            ].samples.append(arrival.sample)
            if index % 200_000 == 0 || index == arrivals.count {
                try await store.write(Array(parts.values))
                parts = [:]
            }
        }
    }
}
