import Foundation
import Testing
import TestSupport
import TrendStore

/// The corners a new user hit with the release CLI (issue 13), each pinned by a test.
@Suite("Corner cases: instants at now, dates that resume, names, unknown series")
struct CornerCaseRegressionTests {
    private static func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier)!
    }

    @Test("an instant exactly at now counts once, in a zone whose offset is not quarter-hours")
    func instantAtNowCountsOnce() async throws {
        // Pacific/Kiritimati was UTC−10:40 in 1975: hour spans are not quarter-aligned.
        let now: Int64 = 171_920_400_000
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Sample(startMilliseconds: now, endMilliseconds: now, value: 5)], to: "x",
                unit: "kcal")
            let curve = try store.todayCurve(
                of: "x", now: Date(milliseconds: now), timeZone: Self.zone("Pacific/Kiritimati"))
            #expect(curve.total == 5)
            #expect(curve.cumulative.filter { $0 > 0 }.allSatisfy { $0 == 5 })
        }
    }

    @Test(
        "an instant at now on an hour boundary counts once in every zone",
        arguments: [
            "UTC", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati", "Africa/Monrovia",
        ])
    func instantAtNowOnHourBoundary(identifier: String) async throws {
        for now: Int64 in [171_920_400_000, 63_000_000, 1_763_683_200_000] {
            try await withTemporaryStore { store, _ in
                try await store.write(
                    [Sample(startMilliseconds: now, endMilliseconds: now, value: 5)], to: "x",
                    unit: "kcal")
                let curve = try store.todayCurve(
                    of: "x", now: Date(milliseconds: now), timeZone: Self.zone(identifier))
                #expect(curve.total == 5, "now \(now) in \(identifier)")
            }
        }
    }

    @Test(
        "a sample counts on the one date its wall clock shows when the clock goes back across midnight"
    )
    func heatmapCountsOnce() async throws {
        // America/Moncton, 1996-10-27 00:01 ADT: clocks went back to 1996-10-26 23:01 AST.
        let instant: Int64 = 846_385_260_001
        let moncton = Self.zone("America/Moncton")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = moncton
        let wall = calendar.dateComponents(
            [.year, .month, .day], from: Date(milliseconds: instant))
        let expectedDate = LocalDate(year: wall.year!, month: wall.month!, day: wall.day!)!
        #expect(expectedDate == LocalDate("1996-10-26"))
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Sample(startMilliseconds: instant, endMilliseconds: instant, value: 7)], to: "x",
                unit: "count")
            let heatmap = try store.heatmap(
                of: ["x"], from: LocalDate("1996-10-25")!, through: LocalDate("1996-10-28")!,
                timeZone: moncton)
            #expect(heatmap.days.map(\.count) == [0, 1, 0, 0])
            #expect(heatmap.days.first { $0.count == 1 }?.date == expectedDate)
            #expect(heatmap.days.map(\.total).reduce(0, +) == 7)
        }
    }

    @Test("canonically equivalent names are one series, found by either spelling")
    func unicodeNames() async throws {
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: composed,
                unit: "kcal")
            try await store.write(
                [Sample(startMilliseconds: 60_000, endMilliseconds: 120_000, value: 2)],
                to: decomposed, unit: "kcal")
            let names = try store.series().map(\.name)
            #expect(names.count == 1)
            #expect(names.first.map { Array($0.utf8) } == Array(composed.utf8))
            #expect(
                try store.samples(of: decomposed, from: .distantPast, to: .distantFuture).count
                    == 2)
            let heatmap = try store.heatmap(
                of: [decomposed], from: LocalDate("1970-01-01")!,
                through: LocalDate("1970-01-01")!, timeZone: Self.zone("UTC"))
            #expect(heatmap.days.first?.total == 3)
        }
    }

    @Test("a query on an unknown series is an error naming it and the closest names")
    func unknownSeries() async throws {
        try await withTemporaryStore { store, _ in
            for name in ["activeEnergy", "basalEnergy", "Run"] {
                try await store.write(
                    [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: name,
                    unit: "kcal")
            }
            let expected = StoreError.unknownSeries("activeEnergi", closest: ["activeEnergy"])
            #expect(throws: expected) { try store.todayCurve(of: "activeEnergi") }
            #expect(throws: expected) {
                try store.weekdayAverage(
                    of: "activeEnergi", weekday: .monday,
                    options: WeekdayAverageOptions(includeEmptyDays: true))
            }
            #expect(throws: expected) {
                try store.dayCurve(of: "activeEnergi", on: LocalDate("2026-01-01")!)
            }
            #expect(throws: StoreError.unknownSeries("Walk", closest: [])) {
                try store.heatmap(
                    of: ["Run", "Walk"], from: LocalDate("2026-01-01")!,
                    through: LocalDate("2026-01-02")!)
            }
            #expect(expected.description.contains("did you mean \"activeEnergy\""))
        }
    }

    @Test("a duration starting exactly at now is the latest sample")
    func durationStartingAtNow() async throws {
        let now: Int64 = 1_763_700_000_000
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Sample(startMilliseconds: now, endMilliseconds: now + 60_000, value: 3)],
                to: "x", unit: "kcal")
            let curve = try store.todayCurve(
                of: "x", now: Date(milliseconds: now), timeZone: Self.zone("UTC"))
            #expect(curve.latestSampleTimestamp == Date(milliseconds: now + 60_000))
            #expect(curve.total == 0)
        }
    }
}
