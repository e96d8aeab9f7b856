import Foundation
import Testing
import TestSupport
import TrendStore

/// A heatmap day's figures per series, whether the heatmap has one series (held in the day)
/// or several (shared by the days), read back, compared and through JSON.
@Suite("heatmap days of one series and of several")
struct HeatmapDayTests {
    @Test("each day's series figures, by series, equality, JSON and the walk agree")
    func perSeriesFigures() async throws {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        try await withTemporaryStore(options: options) { store, _ in
            let day = Int64(86_400_000)
            let first = Int64(1_767_225_600_000)  // 2026-01-01T00:00:00Z
            // Run: two samples on the 1st, one on the 3rd; Ride: one on the 1st and the 2nd.
            try await store.write(
                [
                    Sample(
                        startMilliseconds: first + 3_600_000, endMilliseconds: first + 5_400_000,
                        value: 5),
                    Sample(
                        startMilliseconds: first + 7_200_000, endMilliseconds: first + 9_000_000,
                        value: 2.5),
                    Sample(
                        startMilliseconds: first + 2 * day,
                        endMilliseconds: first + 2 * day + 60_000, value: 10),
                ], to: "Run", unit: "km")
            try await store.write(
                [
                    Sample(
                        startMilliseconds: first + 600_000, endMilliseconds: first + 1_200_000,
                        value: 20),
                    Sample(
                        startMilliseconds: first + day, endMilliseconds: first + day + 600_000,
                        value: 30),
                ], to: "Ride", unit: "km")
            let from = try #require(LocalDate("2026-01-01"))
            let through = try #require(LocalDate("2026-01-04"))
            let run = [
                DayCount(count: 2, total: 7.5), .init(count: 0, total: 0),
                .init(count: 1, total: 10), .init(count: 0, total: 0),
            ]
            let ride = [
                DayCount(count: 1, total: 20), .init(count: 1, total: 30),
                .init(count: 0, total: 0), .init(count: 0, total: 0),
            ]

            let alone = try store.heatmap(of: ["Run"], from: from, through: through)
            #expect(alone.days.map(\.series) == Array(repeating: ["Run"], count: 4))
            #expect(alone.days.map(\.seriesFigures) == run.map { [$0] })
            #expect(alone.days.map(\.count) == run.map(\.count))
            #expect(alone.days.map(\.total) == run.map(\.total))
            #expect(alone.days.map(\.bySeries) == run.map { ["Run": $0] })

            let both = try store.heatmap(of: ["Run", "Ride"], from: from, through: through)
            #expect(both.days.map(\.series) == Array(repeating: ["Ride", "Run"], count: 4))
            #expect(both.days.map(\.seriesFigures) == zip(ride, run).map { [$0, $1] })
            #expect(both.days.map(\.count) == zip(ride, run).map { $0.count + $1.count })
            #expect(both.days.map(\.total) == zip(ride, run).map { $0.total + $1.total })

            for heatmap in [alone, both] {
                let names = heatmap.days[0].series
                var walked: [HeatmapDay] = []
                try store.forEachHeatmapDay(of: names, from: from, through: through) {
                    walked.append($0)
                }
                #expect(walked == heatmap.days)
                let decoded = try JSONDecoder().decode(
                    Heatmap.self, from: JSONEncoder().encode(heatmap))
                #expect(decoded == heatmap)
                // A day built from its parts is the same day.
                let firstDay = heatmap.days[0]
                #expect(
                    HeatmapDay(
                        date: firstDay.date, series: firstDay.series,
                        seriesFigures: firstDay.seriesFigures)
                        == firstDay)
                // A host changing a day's total changes that figure alone.
                var changed = firstDay
                changed.total += 1
                #expect(changed != firstDay)
                #expect(changed.seriesFigures == firstDay.seriesFigures)
            }
        }
    }
}
