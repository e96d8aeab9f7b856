import Foundation
import Testing
import TestSupport
import TrendStore

/// Cached figures belong to the zone they were computed for (issue 13 item 8).
@Suite("Caches per time zone")
struct CacheZoneTests {
    private static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
    private static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    private static let now = Date(timeIntervalSince1970: 1_763_900_000)

    /// 30 days of one sample an hour, so every weekday of the window has data in any zone.
    private static func hourlySamples() -> [Sample] {
        let start: Int64 = 1_763_900_000_000 - 30 * 86_400_000
        return (0..<(30 * 24)).map {
            let begin = start + Int64($0) * 3_600_000
            return Sample(
                startMilliseconds: begin, endMilliseconds: begin + 3_600_000,
                value: Double($0 % 7 + 1))
        }
    }

    @Test("a weekday average cached for Los Angeles is never served for Tokyo")
    func weekdayAveragePerZone() async throws {
        var options = StoreOptions()
        options.timeZone = Self.losAngeles
        try await withTemporaryStore(options: options) { store, _ in
            try await store.write(Self.hourlySamples(), to: "e", unit: "kcal")
            let inLA = try await store.refreshedWeekdayAverage(
                of: "e", weekday: .tuesday, now: Self.now, timeZone: Self.losAngeles)
            #expect(
                inLA.value
                    == (try store.weekdayAverage(
                        of: "e", weekday: .tuesday, now: Self.now, timeZone: Self.losAngeles)))
            #expect(
                try store.cachedWeekdayAverage(
                    of: "e", weekday: .tuesday, now: Self.now, timeZone: Self.tokyo) == nil)
            let inTokyo = try await store.refreshedWeekdayAverage(
                of: "e", weekday: .tuesday, now: Self.now, timeZone: Self.tokyo)
            let expected = try store.weekdayAverage(
                of: "e", weekday: .tuesday, now: Self.now, timeZone: Self.tokyo)
            #expect(inTokyo.value == expected)
            #expect(inTokyo.value != inLA.value)
            let keys = try store.cacheEntries().map(\.key)
            #expect(keys.contains("v2/weekday-average/e/America%2FLos_Angeles/3"))
            #expect(keys.contains("v2/weekday-average/e/Asia%2FTokyo/3"))
            #expect(
                Set(try store.cacheEntries().compactMap(\.timeZone))
                    == ["America/Los_Angeles", "Asia/Tokyo"])
            // A write in the window invalidates both zones' payloads.
            try await store.write(
                [
                    Sample(
                        startMilliseconds: 1_763_800_000_000, endMilliseconds: 1_763_800_000_000,
                        value: 1)
                ],
                to: "e", unit: "kcal")
            #expect(try store.cacheEntries().isEmpty)
        }
    }

    @Test("opening with a zone never changes the stored default; setDefaultTimeZone does")
    func defaultZoneChangesOnlyExplicitly() async throws {
        try await withTemporaryDirectory { directory in
            var options = StoreOptions()
            options.timeZone = Self.losAngeles
            _ = try TrendStore(directory: directory.url, options: options)
            options.timeZone = Self.tokyo
            let other = try TrendStore(directory: directory.url, options: options)
            #expect(other.timeZone == Self.tokyo)
            #expect(other.defaultTimeZone == Self.losAngeles)
            let plain = try TrendStore(directory: directory.url)
            #expect(plain.timeZone == Self.losAngeles)
            try await plain.setDefaultTimeZone(Self.tokyo)
            #expect(plain.defaultTimeZone == Self.tokyo)
            #expect(try TrendStore(directory: directory.url).timeZone == Self.tokyo)
        }
    }

    @Test("the CLI says which zone it uses when --tz is not the store's default")
    func cliNamesTheZone() async throws {
        var options = StoreOptions()
        options.timeZone = Self.losAngeles
        try await withTemporaryStore(options: options) { store, url in
            try await store.write(Self.hourlySamples(), to: "e", unit: "kcal")
            let withTokyo = try CommandLineTool.run([
                "query", "today", "--series", "e", "--store", url.path, "--tz", "Asia/Tokyo",
            ])
            #expect(withTokyo.status == 0, "\(withTokyo.output)")
            #expect(
                withTokyo.output.contains(
                    "using Asia/Tokyo (--tz); the store's default zone is America/Los_Angeles"))
            let plain = try CommandLineTool.run([
                "query", "today", "--series", "e", "--store", url.path,
                "--tz", "America/Los_Angeles",
            ])
            #expect(!plain.output.contains("--tz"))
            let set = try CommandLineTool.run([
                "info", "--store", url.path, "--set-default-tz", "Asia/Tokyo",
            ])
            #expect(set.status == 0, "\(set.output)")
            #expect(set.output.contains("Asia/Tokyo"))
        }
    }
}
