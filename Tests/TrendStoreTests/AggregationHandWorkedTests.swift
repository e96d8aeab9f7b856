import Foundation
import Testing
import TestSupport
import TrendStore

private let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

/// The instant of a wall-clock time in Los Angeles, by Foundation's calendar.
private func la(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = losAngeles
    return
        (calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!)
        .millisecondsSince1970
}

private func withLosAngelesStore(_ body: (TrendStore) async throws -> Void) async throws {
    var options = StoreOptions.quarterHourGrid
    options.timeZone = losAngeles
    try await withTemporaryStore(options: options) { store, _ in try await body(store) }
}

@Suite("Aggregates, worked by hand")
struct AggregationHandWorkedTests {
    @Test("a 23-hour day: the skipped 02:00 bucket is empty, the total is 23")
    func springForward() async throws {
        try await withLosAngelesStore { store in
            let start = la(2026, 3, 8, 0)
            let hourly = (0..<23).map {
                Sample(
                    startMilliseconds: start + Int64($0) * 3_600_000,
                    endMilliseconds: start + Int64($0 + 1) * 3_600_000, value: 1)
            }
            try await store.write(hourly, to: "e", unit: "kcal")
            let curve = try store.dayCurve(of: "e", on: LocalDate("2026-03-08")!)
            #expect(curve.hourly == [1, 1, 0] + Array(repeating: 1, count: 21))
            #expect(curve.total == 23)
        }
    }

    @Test("a 25-hour day: the repeated 01:00 bucket holds both hours, the total is 25")
    func fallBack() async throws {
        try await withLosAngelesStore { store in
            let start = la(2026, 11, 1, 0)
            let hourly = (0..<25).map {
                Sample(
                    startMilliseconds: start + Int64($0) * 3_600_000,
                    endMilliseconds: start + Int64($0 + 1) * 3_600_000, value: 1)
            }
            try await store.write(hourly, to: "e", unit: "kcal")
            let curve = try store.dayCurve(of: "e", on: LocalDate("2026-11-01")!)
            #expect(curve.hourly == [1, 2] + Array(repeating: 1, count: 22))
            #expect(curve.total == 25)
        }
    }

    @Test("a sample straddling local midnight is split between the two days")
    func straddlesMidnight() async throws {
        try await withLosAngelesStore { store in
            try await store.write(
                [
                    Sample(
                        startMilliseconds: la(2026, 6, 1, 23, 30),
                        endMilliseconds: la(2026, 6, 2, 0, 30), value: 6)
                ], to: "e", unit: "kcal")
            #expect(try store.dayCurve(of: "e", on: LocalDate("2026-06-01")!).hourly[23] == 3)
            #expect(try store.dayCurve(of: "e", on: LocalDate("2026-06-02")!).hourly[0] == 3)
            let heatmap = try store.heatmap(
                of: ["e"], from: LocalDate("2026-06-01")!, through: LocalDate("2026-06-02")!)
            #expect(heatmap.days.map(\.count) == [1, 0])  // counted whole on the day it starts
            #expect(heatmap.days.map(\.total) == [6, 0])
        }
    }

    @Test("a sample from 13:57 to 14:02 splits 3:2 between the two hours")
    func splitThreeTwo() async throws {
        try await withLosAngelesStore { store in
            try await store.write(
                [
                    Sample(
                        startMilliseconds: la(2026, 6, 3, 13, 57),
                        endMilliseconds: la(2026, 6, 3, 14, 2), value: 5)
                ], to: "e", unit: "kcal")
            let hourly = try store.dayCurve(of: "e", on: LocalDate("2026-06-03")!).hourly
            #expect(hourly[13] == 3 && hourly[14] == 2)
        }
    }

    @Test("today's curve at 09:10 counts the part before now of a sample straddling it")
    func todayInsideQuarter() async throws {
        try await withLosAngelesStore { store in
            try await store.write(
                [
                    Sample(
                        startMilliseconds: la(2026, 6, 4, 8, 0),
                        endMilliseconds: la(2026, 6, 4, 9, 0), value: 30),
                    Sample(
                        startMilliseconds: la(2026, 6, 4, 9, 0),
                        endMilliseconds: la(2026, 6, 4, 9, 20), value: 20),
                    Sample(
                        startMilliseconds: la(2026, 6, 4, 10, 0),
                        endMilliseconds: la(2026, 6, 4, 10, 5), value: 7),
                ], to: "e", unit: "kcal")
            let today = try store.todayCurve(
                of: "e", now: Date(milliseconds: la(2026, 6, 4, 9, 10)))
            #expect(today.date == LocalDate("2026-06-04"))
            #expect(today.hourly[8] == 30 && today.hourly[9] == 10 && today.hourly[10] == 0)
            #expect(today.total == 40)
            #expect(today.latestSampleTimestamp == Date(milliseconds: la(2026, 6, 4, 9, 20)))
            let early = try store.todayCurve(of: "e", now: Date(milliseconds: la(2026, 6, 4, 7, 0)))
            #expect(early.total == 0 && early.latestSampleTimestamp == nil)
        }
    }

    @Test("weekdays are numbered like Calendar: 1 = Sunday … 7 = Saturday")
    func weekdayNumbering() {
        #expect(LocalDate("2026-11-22")!.weekday == .sunday)
        #expect(LocalDate("2026-11-23")!.weekday == .monday)
        #expect(LocalDate("2026-11-28")!.weekday == .saturday)
        #expect(LocalDate("1970-01-01")!.weekday == .thursday)
        #expect(Weekday.allCases.map(\.rawValue) == Array(1...7))
    }

    @Test("the window is exactly the ten matching days before today")
    func tenDayWindow() async throws {
        try await withLosAngelesStore { store in
            // A sample on every day from 80 days before to today.
            let samples = (0...80).map { back in
                let start = la(2026, 11, 22, 12) - Int64(back) * 86_400_000
                return Sample(
                    startMilliseconds: start, endMilliseconds: start + 60_000, value: Double(back))
            }
            try await store.write(samples, to: "e", unit: "kcal")
            let average = try store.weekdayAverage(
                of: "e", weekday: .sunday, now: Date(milliseconds: la(2026, 11, 22, 10)))
            let expectedDays = (1...10).reversed().map {
                LocalDate("2026-11-22")!.adding(days: -7 * $0)
            }
            #expect(average.days == expectedDays)
            #expect(average.days.first == LocalDate("2026-09-13"))
            // The values of those days are 7, 14, …, 70 days back: their mean is 38.5.
            #expect(average.projectedTotal == 38.5)
        }
    }

    @Test("value(atHour:) interpolates between hour ends, starting from zero at midnight")
    func interpolation() {
        let pattern = (1...24).map { Double($0 * 10) }
        let average = WeekdayAverage(
            series: "e", weekday: .monday, days: [LocalDate("2026-11-16")!],
            averageHourlyPattern: pattern, projectedTotal: 240)
        #expect(average.value(atHour: 0) == 0)
        #expect(average.value(atHour: 0.5) == 5)
        #expect(average.value(atHour: 9.5) == 95)
        #expect(average.value(atHour: 24) == 240)
        #expect(
            WeekdayAverage(
                series: "e", weekday: .monday, days: [], averageHourlyPattern: nil,
                projectedTotal: nil
            ).value(atHour: 3) == nil)
    }

    @Test("a series with no sample in the window reads as empty")
    func emptyAndInvalid() async throws {
        try await withLosAngelesStore { store in
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "old",
                unit: "kcal")
            let average = try store.weekdayAverage(of: "old", weekday: .tuesday)
            #expect(average.dayCount == 0 && average.averageHourlyPattern == nil)
            #expect(try store.todayCurve(of: "old").latestSampleTimestamp == nil)
        }
    }
}
