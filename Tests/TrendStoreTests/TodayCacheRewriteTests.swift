import Foundation
import Testing
import TestSupport
import TrendStore

/// A write inside today's window computes the cached today curve again in its own
/// transaction, so a widget reading the cache between the write and the app's next refresh
/// still finds today's figure, right for the samples beside it.
@Suite("Today's cache after a write")
struct TodayCacheRewriteTests {
    /// The start of the current local day of `zone`, in milliseconds.
    static func startOfToday(in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.startOfDay(for: Date()).millisecondsSince1970
    }

    @Test(
        "a write into today rewrites the cached curve with its move goal; another process reads it")
    func rewrittenAndReadElsewhere() async throws {
        try await withTemporaryDirectory { directory in
            let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
            var options = StoreOptions()
            options.timeZone = zone
            let store = try TrendStore(directory: directory.url, options: options)
            try await store.setDefaultTimeZone(zone)
            let midnight = Self.startOfToday(in: zone)
            let first = Sample(startMilliseconds: midnight, endMilliseconds: midnight + 1, value: 5)
            try await store.write([first], to: "energy", unit: "kcal")
            let refreshed = try await store.refreshedToday(of: "energy", moveGoal: 600)
            #expect(refreshed.value.curve.total == 5)

            let second = Sample(
                startMilliseconds: midnight + 1, endMilliseconds: midnight + 2, value: 7)
            try await store.write([second], to: "energy", unit: "kcal")
            let cached = try #require(try store.cachedToday(of: "energy"))
            #expect(cached.value.moveGoal == 600)
            #expect(cached.value.curve.total == 12)
            #expect(
                cached.value.curve == (try store.todayCurve(of: "energy", now: cached.computedAt)))
            #expect(cached.computedAt >= refreshed.computedAt)

            // The widget's process reads the figure the app's write left.
            let peer = try PeerProcess(store: directory.url)
            defer { peer.quit() }
            #expect(try peer.send("today energy") == "12.0")
            // And the widget's own write keeps it for the app.
            try peer.send("write energy \(midnight + 2) \(midnight + 3) 1")
            #expect(try store.cachedToday(of: "energy")?.value.curve.total == 13)
            #expect(try store.cachedToday(of: "energy")?.value.moveGoal == 600)
            // A deletion inside today rewrites it too.
            try await store.deleteSamples(
                of: "energy", from: Date(milliseconds: midnight),
                to: Date(milliseconds: midnight + 1))
            #expect(try store.cachedToday(of: "energy")?.value.curve.total == 8)
        }
    }

    @Test("a today cache of a day that has passed is removed by a write into it, not rewritten")
    func pastDayRemoved() async throws {
        let clock = ManualClock(Date(milliseconds: 1_772_640_000_000))  // 2026-03-04 16:00Z
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        options.clock = clock.reading
        try await withTemporaryStore(options: options) { store, _ in
            let at: Int64 = 1_772_600_000_000
            try await store.write(
                [Sample(startMilliseconds: at, endMilliseconds: at + 60_000, value: 3)], to: "e",
                unit: "kcal")
            _ = try await store.refreshedToday(of: "e")
            #expect(try store.cachedToday(of: "e")?.value.curve.total == 3)
            clock.set(Date(milliseconds: 1_772_640_000_000 + 86_400_000))
            try await store.write(
                [Sample(startMilliseconds: at + 60_000, endMilliseconds: at + 120_000, value: 1)],
                to: "e", unit: "kcal")
            #expect(try store.cachedToday(of: "e") == nil)
        }
    }
}
