import Foundation
import TrendStore

/// What the cached heatmap buckets cost a write: one-sample commits (durability none, so the
/// disk does not hide the CPU) to a series in a store with no bucket, beside the same commits
/// in a store holding 500 buckets of other series (an app's activity types, by pairs): each
/// write finds the buckets of its own series, not every bucket.
enum HeatmapBucketsBenchmark {
    /// Buckets in the second store.
    static let bucketCount = 500

    static func run(directory: URL, zone: TimeZone, runs: Int, report: inout Report) async throws {
        let start: Int64 = 1_780_000_000_000
        var timings: [Bool: BenchClock.Timing] = [:]
        for withBuckets in [false, true] {
            let store = try WritePathBenchmark.freshStore(
                "heatmaps-\(withBuckets)", in: directory, durability: .none, zone: zone)
            try await store.write(
                [Sample(startMilliseconds: start, endMilliseconds: start + 1_000, value: 1)],
                to: "energy", unit: "kcal")
            if withBuckets {
                let bucket = HeatmapBucket(heatmapDays: [])
                for index in 0..<bucketCount {
                    try await store.writeHeatmapCache(
                        bucket, of: ["activity-\(index / 2)", "activity-\(index / 2 + 1)"])
                }
            }
            var next = start + 1_000
            timings[withBuckets] = try await BenchClock.time(runs) {
                defer { next += 1_000 }
                try await store.write(
                    [Sample(startMilliseconds: next, endMilliseconds: next + 500, value: 0.25)],
                    to: "energy", unit: "kcal")
            }
        }
        guard let none = timings[false], let many = timings[true] else { return }
        report.add(
            "1-sample write, none: no heatmap bucket | \(bucketCount) buckets of other series",
            trendStore: none, sqliteSQL: many.median, unit: .microseconds)
    }
}
