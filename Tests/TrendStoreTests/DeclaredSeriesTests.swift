import Foundation
import Testing
import TestSupport
import TrendStore

/// A series declared before its first sample answers empty figures; an unknown name
/// still throws.
@Suite("Declared series")
struct DeclaredSeriesTests {
    @Test(
        "queries on a declared series without samples answer empty figures; an unknown name still throws"
    )
    func emptyAnswers() async throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let now = Date(timeIntervalSince1970: 1_772_647_200)
        var options = StoreOptions()
        options.timeZone = zone
        try await withTemporaryStore(options: options) { store, _ in
            try await store.declareSeries("activeEnergy", unit: "kcal")
            try await store.declareSeries("heartRate", unit: "count/min", kind: .discrete)
            try await store.declareSeries("Run", unit: "min")

            let today = try store.todayCurve(of: "activeEnergy", now: now)
            #expect(today.cumulative == Array(repeating: 0, count: 24))
            #expect(today.latestSampleTimestamp == nil)
            let average = try store.weekdayAverage(of: "activeEnergy", weekday: .monday, now: now)
            #expect(average.days.isEmpty && average.averageHourlyPattern == nil)
            let first = try #require(LocalDate(year: 2026, month: 1, day: 1))
            let last = try #require(LocalDate(year: 2026, month: 3, day: 1))
            let heatmap = try store.heatmap(of: ["Run"], from: first, through: last)
            #expect(heatmap.days.allSatisfy { $0.count == 0 && $0.total == 0 })
            let statistics = try store.statistics(
                of: "heartRate", from: now.addingTimeInterval(-86_400 * 3), to: now,
                interval: .days(1), options: [.average, .minimum, .maximum])
            #expect(statistics.buckets.allSatisfy { $0.average == nil && $0.minimum == nil })
            #expect(try store.series().map(\.sampleCount) == [0, 0, 0])

            // Declaring again is nothing; another unit or kind is refused.
            try await store.declareSeries("activeEnergy", unit: "kcal")
            await #expect { try await store.declareSeries("activeEnergy", unit: "kJ") } throws: {
                ($0 as? StoreError)?.code == "unit-mismatch"
            }
            await #expect {
                try await store.declareSeries("Run", unit: "min", kind: .discrete)
            } throws: {
                ($0 as? StoreError)?.code == "kind-mismatch"
            }
            // A typo is still an error, with the declared name suggested.
            #expect {
                try store.todayCurve(of: "activeEnergie", now: now)
            } throws: {
                ($0 as? StoreError) == .unknownSeries("activeEnergie", closest: ["activeEnergy"])
            }
            // Samples then arrive as usual.
            try await store.write(
                [
                    Sample(
                        startMilliseconds: 1_772_640_000_000, endMilliseconds: 1_772_640_060_000,
                        value: 2)
                ],
                to: "activeEnergy", unit: "kcal")
            #expect(try store.todayCurve(of: "activeEnergy", now: now).total == 2)
        }
    }

    @Test(
        "a series declared after an anchor travels in the feed from it; declaring it again adds nothing"
    )
    func declarationTravels() async throws {
        try await withTemporaryStore { phone, _ in
            try await withTemporaryStore { tablet, _ in
                try await phone.write(
                    [
                        Sample(
                            startMilliseconds: 1_772_640_000_000,
                            endMilliseconds: 1_772_640_060_000, value: 1)
                    ],
                    to: "activeEnergy", unit: "kcal")
                let anchor = try phone.changeAnchor()
                try await tablet.apply(try phone.changes(since: nil))
                try await phone.declareSeries("heartRate", unit: "count/min", kind: .discrete)
                let changes = try phone.changes(since: anchor)
                #expect(changes.sampleCount == 0)
                try await tablet.apply(changes)
                #expect(try tablet.kind(of: "heartRate") == .discrete)
                #expect(try tablet.unit(of: "heartRate") == "count/min")
                // Declaring it again commits nothing to the change log.
                let later = try phone.changeAnchor()
                try await phone.declareSeries("heartRate", unit: "count/min", kind: .discrete)
                #expect(try phone.changeAnchor() == later)
            }
        }
    }
}
