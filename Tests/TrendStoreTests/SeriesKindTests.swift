import Foundation
import Testing
import TestSupport
import TrendStore

@Suite("Series kinds")
struct SeriesKindTests {
    private static let utc = TimeZone(identifier: "UTC")!
    private static let dayStart: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z

    private static func instant(_ minutes: Int64, _ value: Double) -> Sample {
        let start = dayStart + minutes * 60_000
        return Sample(startMilliseconds: start, endMilliseconds: start, value: value)
    }

    @Test("the kind is set at creation and a conflicting write is an error naming both kinds")
    func kindIsImmutable() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Self.instant(0, 60)], to: "hr", unit: "count/min", kind: .discrete)
            try await store.write([Self.instant(1, 61)], to: "hr", unit: "count/min")
            #expect(try store.kind(of: "hr") == .discrete)
            try await store.write([Self.instant(0, 5)], to: "steps", unit: "count")
            #expect(try store.kind(of: "steps") == .cumulative)
            #expect(try store.kind(of: "nothing") == nil)
            do {
                try await store.write(
                    [Self.instant(2, 62)], to: "hr", unit: "count/min", kind: .cumulative)
                Issue.record("a write with a conflicting kind")
            } catch let error as StoreError {
                #expect(error == .kindMismatch(series: "hr", stored: .discrete, given: .cumulative))
                #expect(error.description == "series hr is discrete, not cumulative")
            }
            #expect(try store.samples(of: "hr", from: .distantPast, to: .distantFuture).count == 2)
        }
    }

    @Test("curves of a discrete series and averages of a cumulative one are errors; heatmaps count")
    func queriesFitTheKind() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Self.instant(10, 60), Self.instant(20, 80), Self.instant(24 * 60 + 5, 70)],
                to: "hr",
                unit: "count/min", kind: .discrete)
            try await store.write([Self.instant(0, 5)], to: "steps", unit: "count")
            let date = LocalDate(year: 2026, month: 1, day: 1)!
            #expect(throws: StoreError.self) {
                try store.dayCurve(of: "hr", on: date, timeZone: Self.utc)
            }
            #expect(throws: StoreError.self) {
                try store.todayCurve(
                    of: "hr", now: Date(milliseconds: Self.dayStart + 3_600_000), timeZone: Self.utc
                )
            }
            do {
                _ = try store.weekdayAverage(of: "hr", weekday: .monday, timeZone: Self.utc)
                Issue.record("a weekday average of a discrete series")
            } catch let error as StoreError {
                #expect(error.code == "unsupported-for-kind")
                #expect(error.description.contains("query stats"))
            }
            #expect(throws: StoreError.self) {
                try store.statistics(
                    of: "steps", from: Date(milliseconds: Self.dayStart),
                    to: Date(milliseconds: Self.dayStart + 86_400_000), interval: .days(1),
                    timeZone: Self.utc, options: [.average])
            }
            let heatmap = try store.heatmap(
                of: ["hr"], from: date, through: date.adding(days: 1), timeZone: Self.utc)
            #expect(heatmap.days.map(\.count) == [2, 1])
            #expect(heatmap.days.map(\.total) == [140, 70])
        }
    }

    @Test("hand-computed daily statistics of a discrete series; an empty day has no figures")
    func handComputedDays() async throws {
        try await withTemporaryStore { store, _ in
            // Day 1: 60 at 00:10, 80 at 00:20, 71.5 over 23:50–00:10 (belongs to day 1: its start).
            // Day 2: nothing starts. Day 3: 55 at 12:00 twice with different ends.
            let span = Sample(
                startMilliseconds: Self.dayStart + (24 * 60 - 10) * 60_000,
                endMilliseconds: Self.dayStart + (24 * 60 + 10) * 60_000, value: 71.5)
            let third = Self.dayStart + 2 * 86_400_000 + 12 * 3_600_000
            let early = Sample(startMilliseconds: third, endMilliseconds: third + 1_000, value: 55)
            let late = Sample(startMilliseconds: third, endMilliseconds: third + 2_000, value: 56)
            try await store.write(
                [Self.instant(10, 60), Self.instant(20, 80), span, late, early], to: "hr",
                unit: "count/min", kind: .discrete)
            let answer = try store.statistics(
                of: "hr", from: Date(milliseconds: Self.dayStart),
                to: Date(milliseconds: Self.dayStart + 3 * 86_400_000), interval: .days(1),
                timeZone: Self.utc,
                options: [.sum, .average, .minimum, .maximum, .count, .mostRecent])
            #expect(answer.buckets.count == 3)
            let first = answer.buckets[0]
            #expect(first.count == 3 && first.sum == 211.5 && first.average == 70.5)
            #expect(first.minimum == 60 && first.maximum == 80 && first.mostRecent == span)
            #expect(
                answer.buckets[1]
                    == StatisticsBucket(
                        start: Date(milliseconds: Self.dayStart + 86_400_000),
                        end: Date(milliseconds: Self.dayStart + 2 * 86_400_000)))
            #expect(answer.buckets[2].mostRecent == late && answer.buckets[2].average == 55.5)
            // Only what was asked for is there.
            let counts = try store.statistics(
                of: "hr", from: Date(milliseconds: Self.dayStart),
                to: Date(milliseconds: Self.dayStart + 86_400_000), interval: .hours(12),
                timeZone: Self.utc, options: [.count])
            #expect(counts.buckets.map(\.count) == [2, 1])
            #expect(counts.buckets.allSatisfy { $0.sum == nil && $0.average == nil })
        }
    }
}
