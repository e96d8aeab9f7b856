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
        // The dataset and the one-sample commits.
        let withIDs = try await Self.withIDs(
            from: store, in: directory, zone: zone, samples: changes.sampleCount + runs)
        let samples = Double(changes.sampleCount)
        func rate(_ seconds: Double) -> String {
            String(format: "%.2fM samples/s", samples / seconds / 1e6)
        }
        func perSample(_ value: Int, of count: Double = samples) -> String {
            String(format: "%.2f B", Double(value) / count)
        }
        let idSamples = Double(changes.sampleCount + runs)
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
            | the same samples, each with a UUID: write (durability none) | \(String(format: "%.2fM samples/s", idSamples / withIDs.write / 1e6)) |
            | with ids: change log's pages per sample | \(perSample(withIDs.logBytes, of: idSamples)) |
            | with ids: change-set bytes per sample | \(perSample(withIDs.setBytes, of: idSamples)) |
            """
    }

    /// The dataset's samples written again into a new store, each with a random UUID as its
    /// id (a HealthKit mirror's), in writes of 100,000: how long they take, and what the
    /// change log and a change set from no anchor take then.
    static func withIDs(from store: TrendStore, in directory: URL, zone: TimeZone, samples: Int)
        async throws -> (write: Double, logBytes: Int, setBytes: Int)
    {
        let target = try WritePathBenchmark.freshStore(
            "sync-ids", in: directory, durability: .none, zone: zone)
        var seconds = 0.0
        var written = 0
        for info in try store.series() {
            let all = try store.samples(of: info.name, from: .distantPast, to: .distantFuture)
            var offset = 0
            while offset < all.count {
                let chunk = Array(all[offset..<min(offset + 100_000, all.count)])
                let ids = chunk.map { _ in SampleID(UUID()) }
                let began = BenchClock.now()
                try await target.write(
                    chunk, ids: ids, to: info.name, unit: info.unit, kind: info.kind)
                seconds += BenchClock.seconds(since: began)
                offset += chunk.count
            }
            written += all.count
        }
        guard written == samples else {
            throw BenchmarkError("wrote \(written) samples with ids of \(samples)")
        }
        let bytes = try target.changes(since: nil).encoded().count
        return (seconds, try target.footprint().changeLogBytes, bytes)
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
