import Foundation
import TrendStore

/// What keeping the widget's today cache exact costs a write: one-sample commits into today
/// (durability none, so the disk does not hide the CPU) to a series whose today curve is
/// cached, which each commit computes again in its transaction, beside the same commits to
/// a series with no cached figure (what every commit cost before: the cache was removed by
/// the first and nothing was left to remove).
enum TodayCacheBenchmark {
    static func run(directory: URL, zone: TimeZone, runs: Int, report: inout Report) async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let midnight = calendar.startOfDay(for: Date()).millisecondsSince1970
        var timings: [Bool: BenchClock.Timing] = [:]
        for cached in [false, true] {
            let store = try WritePathBenchmark.freshStore(
                "today-\(cached)", in: directory, durability: .none, zone: zone)
            // Today's minutes so far, as an app holds them by the evening.
            let minutes = (0..<960).map { minute in
                Sample(
                    startMilliseconds: midnight + Int64(minute) * 60_000,
                    endMilliseconds: midnight + Int64(minute) * 60_000 + 60_000, value: 0.8)
            }
            try await store.write(minutes, to: "energy", unit: "kcal")
            if cached { _ = try await store.refreshedToday(of: "energy", moveGoal: 600) }
            var next = midnight
            timings[cached] = try await BenchClock.time(runs) {
                defer { next += 1_000 }
                try await store.write(
                    [Sample(startMilliseconds: next, endMilliseconds: next + 500, value: 0.25)],
                    to: "energy", unit: "kcal")
            }
            if cached, try store.cachedToday(of: "energy") == nil {
                throw BenchmarkError("the today cache was not kept by the writes")
            }
        }
        guard let plain = timings[false], let rewritten = timings[true] else { return }
        report.add(
            "1-sample write into today, none: no cached figure | today cache rewritten",
            trendStore: plain, sqliteSQL: rewritten.median, unit: .microseconds)
    }
}
