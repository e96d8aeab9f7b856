import Foundation
import Testing
import TrendStore
import TrendStoreTesting

/// The `TrendStoreTesting` product, as a host app's tests use it.
@Suite("The testing library")
struct TestingLibraryTests {
    @Test("a TemporaryStore opens a new store and deletes its directory when released")
    func temporaryStore() async throws {
        var url: URL?
        do {
            let temporary = try TemporaryStore()
            url = temporary.url
            try await temporary.store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 2)], to: "e",
                unit: "kcal")
            #expect(FileManager.default.fileExists(atPath: temporary.url.path))
            #expect(try temporary.store.series().map(\.sampleCount) == [1])
            await temporary.store.close()
        }
        let removed = try #require(url).deletingLastPathComponent()
        #expect(!FileManager.default.fileExists(atPath: removed.path))
    }

    @Test("one ManualClock moves queries whose now is left out and the cache rules together")
    func manualClock() async throws {
        let zone = try #require(TimeZone(identifier: "Europe/Lisbon"))
        let clock = ManualClock(Date(timeIntervalSince1970: 1_772_647_200))  // 2026-03-04 18:00Z
        var options = StoreOptions()
        options.timeZone = zone
        options.clock = clock.reading
        let temporary = try TemporaryStore(options: options)
        let store = temporary.store
        try await store.write(
            [
                Sample(
                    startMilliseconds: 1_772_640_000_000, endMilliseconds: 1_772_640_060_000,
                    value: 3)
            ],
            to: "e", unit: "kcal")
        let today = try store.todayCurve(of: "e")
        #expect(today.date == LocalDate(year: 2026, month: 3, day: 4))
        #expect(today.total == 3)
        let cached = try await store.refreshedToday(of: "e")
        #expect(cached.computedAt == clock.now)
        clock.advance(by: 86_400)
        #expect(try store.todayCurve(of: "e").date == LocalDate(year: 2026, month: 3, day: 5))
        #expect(try store.todayCurve(of: "e").total == 0)
        #expect(try await store.refreshedToday(of: "e").computedAt == clock.now)
        await store.close()
    }
}
