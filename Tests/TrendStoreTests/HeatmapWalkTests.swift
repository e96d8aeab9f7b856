import Foundation
import Testing
import TestSupport
import TrendStore

/// Heatmaps count each sample in the local date its start falls on, including where a date
/// resumes after the next one began (St. John's, 7 November 2010: at 00:01 the clock went
/// back to 23:01, so 00:00–00:01 belongs to the 7th and the hour after it to the 6th again).
@Suite("heatmaps over resumed dates")
struct HeatmapWalkTests {
    @Test(
        "counts and totals match a Foundation calendar's dates, on either grid",
        arguments: [RollupGrid.hour, .quarterHour])
    func resumedDate(grid: RollupGrid) async throws {
        let zone = try #require(TimeZone(identifier: "America/St_Johns"))
        var options = StoreOptions()
        options.timeZone = zone
        options.rollupGrid = grid
        try await withTemporaryStore(options: options) { store, _ in
            // A 20-second sample every 20 seconds (some starting at 02:30:00Z, inside the
            // 7th's first minute), and sparse ones on days around it.
            let first = Int64(1_289_073_600_000)  // 2010-11-06T20:00:00Z
            var samples = (0..<2_160).map { index in
                let start = first + Int64(index) * 20_000
                return Sample(
                    startMilliseconds: start, endMilliseconds: start + 20_000,
                    value: Double(index % 97) / 4)
            }
            for days in [-40, -3, 2, 30] {
                let start = first + Int64(days) * 86_400_000 + 3_600_000
                samples.append(
                    Sample(startMilliseconds: start, endMilliseconds: start + 600_000, value: 7.5))
            }
            try await store.write(samples, to: "Run", unit: "km")
            try await store.write(
                [Sample(startMilliseconds: first, endMilliseconds: first + 60_000, value: 1)],
                to: "Ride", unit: "km")

            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            var expected: [String: (count: Int, total: Double)] = [:]
            for sample in samples.sorted(by: { $0.startMilliseconds < $1.startMilliseconds }) {
                let parts = calendar.dateComponents(
                    [.year, .month, .day], from: Date(milliseconds: sample.startMilliseconds))
                let key = String(
                    format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
                expected[key, default: (0, 0)].count += 1
                expected[key, default: (0, 0)].total += sample.value
            }
            // Four months: the series is sparse for them, so its samples are walked on either
            // grid. Four days: dense, so the quarter-hour grid reads rollup slots, and the
            // 7th's first minute (not quarter-aligned) raw samples in between; with the
            // sparse sample of the 8th, 2,161.
            for (from, through, count) in [
                ("2010-09-01", "2010-12-31", samples.count), ("2010-11-05", "2010-11-08", 2_161),
            ] {
                let heatmap = try store.heatmap(
                    of: ["Run", "Ride"], from: LocalDate(from)!, through: LocalDate(through)!)
                var seen = 0
                for day in heatmap.days {
                    let figures = day.bySeries["Run"] ?? DayCount(count: 0, total: 0)
                    let want = expected[day.date.description] ?? (0, 0)
                    #expect(figures.count == want.count, "\(day.date)")
                    #expect(
                        abs(figures.total - want.total) <= 1e-9 * max(1, want.total), "\(day.date)")
                    seen += figures.count
                }
                #expect(seen == count)
            }
            #expect(
                expected["2010-11-07"]?.count ?? 0 > 0 && expected["2010-11-06"]?.count ?? 0 > 0)
        }
    }
}
