import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

private let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

/// An instant in Los Angeles wall-clock time.
private func la(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = losAngeles
    return calendar.date(
        from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

/// A store in Los Angeles with a clock the test moves, holding one sample at noon on each of the 80 days before 2026-11-23.
private func withCachedStore(_ body: (TrendStore, ManualClock) async throws -> Void) async throws {
    let clock = ManualClock(la(2026, 11, 23, 10))
    var options = StoreOptions()
    options.timeZone = losAngeles
    options.clock = clock.reading
    try await withTemporaryStore(options: options) { store, _ in
        let samples = (1...80).map { back in
            let start = la(2026, 11, 23, 12).millisecondsSince1970 - Int64(back) * 86_400_000
            return Sample(
                startMilliseconds: start, endMilliseconds: start + 600_000, value: Double(back))
        }
        try await store.write(samples, to: "energy", unit: "kcal")
        try await body(store, clock)
    }
}

@Suite("Freshness rules")
struct FreshnessTests {
    @Test("isFresh: 0 ≤ age ≤ maxAge; a computedAt in the future is not fresh")
    func isFresh() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(Freshness.isFresh(computedAt: now, maxAge: 60, now: now))
        #expect(Freshness.isFresh(computedAt: now.addingTimeInterval(-60), maxAge: 60, now: now))
        #expect(!Freshness.isFresh(computedAt: now.addingTimeInterval(-61), maxAge: 60, now: now))
        #expect(!Freshness.isFresh(computedAt: now.addingTimeInterval(1), maxAge: 60, now: now))
    }

    @Test("today's cache is stale without a latest sample or with one from another local day")
    func todayRule() {
        let now = la(2026, 11, 23, 0, 30)
        #expect(Freshness.isTodayStale(latestSampleTimestamp: nil, now: now, timeZone: losAngeles))
        #expect(
            Freshness.isTodayStale(
                latestSampleTimestamp: la(2026, 11, 22, 23, 59), now: now, timeZone: losAngeles))
        #expect(
            !Freshness.isTodayStale(
                latestSampleTimestamp: la(2026, 11, 23, 0, 10), now: now, timeZone: losAngeles))
    }

    @Test(
        "weekday averages refresh when missing, past 30 days, from the future, or in today's 06:00–09:00 window",
        arguments: [
            (nil, .monday, la(2026, 11, 23, 12), true),  // missing
            (la(2026, 10, 23, 11), .monday, la(2026, 11, 23, 12), true),  // 31 days old
            // 29 days old, another weekday
            (la(2026, 10, 25, 12), .tuesday, la(2026, 11, 23, 12), false),
            (la(2026, 11, 24, 12), .tuesday, la(2026, 11, 23, 12), true),  // computed in the future
            // Monday 07:00, computed before 06:00 today
            (la(2026, 11, 23, 5, 59), .monday, la(2026, 11, 23, 7), true),
            // already refreshed this morning
            (la(2026, 11, 23, 6, 1), .monday, la(2026, 11, 23, 7), false),
            // 09:00 is past the window
            (la(2026, 11, 22, 20), .monday, la(2026, 11, 23, 9), false),
            (la(2026, 11, 22, 20), .monday, la(2026, 11, 23, 6), true),  // 06:00 is in it
            (la(2026, 11, 22, 20), .tuesday, la(2026, 11, 23, 7), false),  // not today's weekday
        ] as [(Date?, Weekday, Date, Bool)])
    func weekdayRule(computedAt: Date?, weekday: Weekday, now: Date, expected: Bool) {
        #expect(
            Freshness.mustRefreshWeekdayAverage(
                computedAt: computedAt, weekday: weekday, now: now, timeZone: losAngeles)
                == expected)
    }
}

@Suite("Cached aggregates")
struct CacheTests {
    @Test("a fresh cache is served as it is; a stale one is recomputed and stored")
    func refresh() async throws {
        try await withCachedStore { store, clock in
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .wednesday) == nil)
            // Wednesday, on Monday
            let first = try await store.refreshedWeekdayAverage(of: "energy", weekday: .wednesday)
            #expect(first.computedAt == clock.now && !first.isStale && first.schemaVersion == 2)
            #expect(
                first.value
                    == (try store.weekdayAverage(of: "energy", weekday: .wednesday, now: clock.now))
            )
            clock.set(la(2026, 12, 1, 10))  // 8 days later, another weekday: still fresh
            let second = try await store.refreshedWeekdayAverage(of: "energy", weekday: .wednesday)
            #expect(second.computedAt == first.computedAt)
            clock.set(la(2026, 12, 30, 10))  // 37 days after computing: refreshed
            let third = try await store.refreshedWeekdayAverage(of: "energy", weekday: .wednesday)
            #expect(third.computedAt == clock.now)
            #expect(
                try store.cachedWeekdayAverage(of: "energy", weekday: .wednesday)?.computedAt
                    == clock.now)
        }
    }

    @Test(
        "writing samples into the window removes the cached figure in the same transaction; writing outside keeps it"
    )
    func invalidation() async throws {
        try await withCachedStore { store, clock in
            _ = try await store.refreshedWeekdayAverages(of: "energy")
            let future = la(2026, 11, 24, 12).millisecondsSince1970
            try await store.write(
                [Sample(startMilliseconds: future, endMilliseconds: future + 60_000, value: 1)],
                to: "energy", unit: "kcal")
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .monday) != nil)
            let inside = la(2026, 11, 2, 8).millisecondsSince1970  // a Monday in the window
            try await store.write(
                [Sample(startMilliseconds: inside, endMilliseconds: inside + 60_000, value: 50)],
                to: "energy", unit: "kcal")
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .monday) == nil)
            // every weekday's window holds that day's UTC span
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .tuesday) == nil)
            let rebuilt = try await store.refreshedWeekdayAverage(of: "energy", weekday: .monday)
            #expect(
                rebuilt.value
                    == (try store.weekdayAverage(of: "energy", weekday: .monday, now: clock.now)))
        }
    }

    @Test("corrupt payload bytes read as missing, are counted, and are rebuilt")
    func corruptPayload() async throws {
        try await withCachedStore { store, _ in
            _ = try await store.refreshedWeekdayAverage(of: "energy", weekday: .thursday)
            let key = Array(
                SchemaKey.weekdayAverage("energy", weekday: .thursday, zone: losAngeles).utf8)
            try store.engine.write { txn, _ in
                var bytes = try #require(
                    try txn.value(forKey: key, in: store.engine.tables.payloads.database))
                bytes[40] ^= 0xFF
                try txn.put(bytes, forKey: key, in: store.engine.tables.payloads.database)
            }
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .thursday) == nil)
            #expect(store.cacheStatistics.unreadablePayloads >= 1)
            let rebuilt = try await store.refreshedWeekdayAverage(of: "energy", weekday: .thursday)
            #expect(rebuilt.value.dayCount == 10)
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .thursday) != nil)
        }
    }

    @Test("when recomputing fails, the last good payload is returned marked stale")
    func staleOnFailure() async throws {
        try await withCachedStore { store, clock in
            let good = try await store.refreshedWeekdayAverage(of: "energy", weekday: .friday)
            // Damage every hour summary behind the stored payload's back, then force a refresh.
            try store.engine.write { txn, _ in
                let record = try store.engine.storage.requireSeries(named: "energy", in: txn)
                let hours = store.engine.storage.hours.database
                var groups: [Int64] = []
                try store.engine.storage.hours.forEachRow(series: record.id, in: txn) { group, _ in
                    groups.append(group)
                }
                for group in groups {
                    let key = StorageKey.make(series: record.id, index: group)
                    var bytes = try #require(try txn.value(forKey: key, in: hours))
                    bytes[0] ^= 0x55  // the row's version: it becomes unreadable
                    try txn.put(bytes, forKey: key, in: hours)
                }
            }
            // 37 days on: a refresh is due, and its window still holds the damaged rows
            clock.set(la(2026, 12, 30, 10))
            let served = try await store.refreshedWeekdayAverage(of: "energy", weekday: .friday)
            #expect(served.isStale)
            #expect(served.value == good.value && served.computedAt == good.computedAt)
            #expect(store.cacheStatistics.failedRefreshes == 1)
        }
    }

    @Test("the today cache keeps the last move goal when the host cannot read one")
    func todayMoveGoal() async throws {
        try await withCachedStore { store, clock in
            let now = clock.now.millisecondsSince1970
            try await store.write(
                [
                    Sample(
                        startMilliseconds: now - 600_000, endMilliseconds: now - 60_000, value: 12)
                ], to: "energy", unit: "kcal")
            let first = try await store.refreshedToday(of: "energy", moveGoal: 600)
            #expect(first.value.moveGoal == 600 && !first.isStale && first.value.curve.total == 12)
            let second = try await store.refreshedToday(of: "energy", moveGoal: nil)
            #expect(second.value.moveGoal == 600)
            #expect(try store.cachedToday(of: "energy")?.value == second.value)
            clock.set(la(2026, 11, 24, 0, 5))  // next day: the cached latest sample is yesterday's
            #expect(try store.cachedToday(of: "energy")?.isStale == true)
        }
    }

    @Test("clearing one key, one series, or everything")
    func clearing() async throws {
        try await withCachedStore { store, _ in
            _ = try await store.refreshedWeekdayAverages(of: "energy")
            _ = try await store.refreshedToday(of: "energy")
            #expect(
                try await store.clearCache(
                    .key(SchemaKey.weekdayAverage("energy", weekday: .sunday, zone: losAngeles)))
                    == 1)
            #expect(try store.cacheEntries().count == 7)
            #expect(try await store.clearCache(.series("energ")) == 0)
            #expect(try await store.clearCache(.series("energy")) == 7)
            _ = try await store.refreshedToday(of: "energy")
            #expect(try await store.clearCache(.all) == 1)
            #expect(try store.cacheEntries().isEmpty)
        }
    }
}

@Suite("Schema migrations")
struct MigrationTests {
    @Test(
        "v1 → v2: weekdays with samples are rebuilt, the others seeded from the v1 pattern, the v1 key removed"
    )
    func v1ToV2() async throws {
        let clock = ManualClock(la(2026, 11, 23, 10))
        var options = StoreOptions()
        options.timeZone = losAngeles
        options.clock = clock.reading
        try await withTemporaryStore(options: options) { store, _ in
            #expect(
                try store.appliedMigrations() == [
                    "0001-v1-average-to-v2-weekday-averages", "0002-blocks-to-layout-2",
                    "0003-commit-stamps", "0004-sources", "0005-change-log",
                    "0006-batched-row-rebuilds", "0007-store-bound-sealing", "0008-sample-ids",
                    "0009-whole-day-versions",
                ])
            // Samples on Mondays only.
            let mondays = (1...10).map { week -> Sample in
                let start =
                    la(2026, 11, 23, 12).millisecondsSince1970 - Int64(week) * 7 * 86_400_000
                return Sample(
                    startMilliseconds: start, endMilliseconds: start + 600_000, value: 100)
            }
            try await store.write(mondays, to: "energy", unit: "kcal")
            let pattern = (1...24).map { Double($0) * 10 }
            let cachedAt = la(2026, 10, 1, 8)
            try await store.importV1Average(
                of: "energy", pattern: pattern, projectedTotal: 240, computedAt: cachedAt)

            let monday = try #require(
                try store.cachedWeekdayAverage(of: "energy", weekday: .monday))
            #expect(
                !monday.isMigrated && monday.computedAt == clock.now && monday.value.dayCount == 10)
            #expect(monday.value.projectedTotal == 100)
            for weekday in [Weekday.sunday, .tuesday, .wednesday, .thursday, .friday, .saturday] {
                let seeded = try #require(
                    try store.cachedWeekdayAverage(of: "energy", weekday: weekday))
                #expect(seeded.isMigrated && seeded.computedAt == cachedAt)
                #expect(
                    seeded.value.averageHourlyPattern == pattern
                        && seeded.value.projectedTotal == 240)
            }
            #expect(
                try store.cacheEntries().map(\.key).contains(SchemaKey.v1Average("energy")) == false
            )
            // A refresh with no samples for that weekday keeps the fallback, marked stale.
            let tuesday = try await store.refreshedWeekdayAverage(of: "energy", weekday: .tuesday)
            #expect(tuesday.isMigrated && tuesday.isStale && tuesday.value.projectedTotal == 240)
        }
    }

    @Test(
        "opening a store runs each migration once, and a v1 key written afterwards is not touched by reopening"
    )
    func runsOnce() async throws {
        try withTemporaryDirectory { directory in
            let store = try TrendStore(directory: directory.url)
            let v1 = V1Average(pattern: Array(repeating: 1, count: 24), projectedTotal: 1)
                .payload(computedAt: 0)
            try store.engine.write { txn, _ in
                try store.engine.caches.putPayload(v1, forKey: SchemaKey.v1Average("e"), in: txn)
            }
            let reopened = try TrendStore(directory: directory.url)
            #expect(
                try reopened.appliedMigrations() == [
                    "0001-v1-average-to-v2-weekday-averages", "0002-blocks-to-layout-2",
                    "0003-commit-stamps", "0004-sources", "0005-change-log",
                    "0006-batched-row-rebuilds", "0007-store-bound-sealing", "0008-sample-ids",
                    "0009-whole-day-versions",
                ])
            #expect(try reopened.cacheEntries().map(\.key) == [SchemaKey.v1Average("e")])
        }
    }
}
