import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

private let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

private func withLegacyStore(_ body: (TrendStore) async throws -> Void) async throws {
    var options = StoreOptions()
    options.timeZone = losAngeles
    let clock = ManualClock(ISO8601DateFormatter().date(from: "2026-11-20T18:00:00Z")!)
    options.clock = clock.reading
    try await withTemporaryStore(options: options) { store, _ in try await body(store) }
}

@Suite("Importing the legacy cache files")
struct LegacyCacheImportTests {
    // The fixtures were written by a script from the shapes the Health Trends app writes; the values below are the ones it wrote.
    @Test(
        "v1 average-data-cache.json (ISO-8601 dates) seeds all seven weekdays as migrated, ignoring the now marker"
    )
    func v1() async throws {
        try await withLegacyStore { store in
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("legacy/average-data-cache.json"))
            #expect(summary.format == .legacy && summary.cachesWritten.count == 7)
            for weekday in Weekday.allCases {
                let cached = try #require(
                    try store.cachedWeekdayAverage(of: "activeEnergy", weekday: weekday))
                #expect(cached.isMigrated && cached.isImported)
                #expect(
                    cached.computedAt
                        == foundationMilliseconds("2026-10-01T14:30:00Z").map(
                            Date.init(milliseconds:)))
                #expect(cached.value.averageHourlyPattern == (1...24).map { 20.5 * Double($0) })
                #expect(cached.value.projectedTotal == 492)
            }
        }
    }

    @Test("average-data-cache-v2.json (seconds since 2001) fills its weekdays with their cachedAt")
    func v2() async throws {
        try await withLegacyStore { store in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("legacy/average-data-cache-v2.json"))
            let monday = try #require(
                try store.cachedWeekdayAverage(of: "activeEnergy", weekday: .monday))
            #expect(
                monday.value.averageHourlyPattern == (1...24).map { 10 * Double($0) }
                    && monday.value.projectedTotal == 240)
            #expect(
                monday.computedAt
                    == foundationMilliseconds("2026-10-12T13:15:00Z").map(Date.init(milliseconds:)))
            // 39 days old at the store's clock
            #expect(monday.isImported && !monday.isMigrated && monday.isStale)
            #expect(
                try store.cachedWeekdayAverage(of: "activeEnergy", weekday: .saturday)?.value
                    .projectedTotal
                    == 360)
            #expect(try store.cachedWeekdayAverage(of: "activeEnergy", weekday: .tuesday) == nil)
        }
    }

    @Test(
        "energy-data.json: the curve up to 09:00 carried forward, move goal and latest sample kept, the now marker ignored"
    )
    func today() async throws {
        try await withLegacyStore { store in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("legacy/energy-data.json"))
            let cached = try #require(try store.cachedToday(of: "activeEnergy"))
            #expect(cached.value.curve.date == LocalDate("2026-11-20"))
            let expected: [Double] = (0..<24).map { hour in Double(min(hour + 1, 9) * 30) }
            #expect(cached.value.curve.cumulative == expected)
            #expect(cached.value.moveGoal == 600)
            #expect(
                cached.value.curve.latestSampleTimestamp
                    == foundationMilliseconds("2026-11-20T17:38:00Z").map(Date.init(milliseconds:)))
            #expect(!cached.isStale)  // latest sample on the clock's local day
        }
    }

    @Test("a broken legacy file names the field")
    func broken() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("average-data-cache.json").path
            try
                #"{"averageHourlyPattern": [{"hour": "2026-10-01T07:00:00Z", "calories": 0}], "cachedAt": "2026-10-01T14:30:00Z", "cacheVersion": 1}"#
                .write(toFile: path, atomically: true, encoding: .utf8)
            try await withLegacyStore { store in
                await #expect(
                    throws: ImportError(
                        file: path, field: "projectedTotal", reason: "missing or not a number")
                ) {
                    _ = try await Importer(store: store).importFile(at: path)
                }
            }
        }
    }
}

@Suite("Importing the legacy activity cache")
struct LegacyActivityCacheTests {
    @Test("buckets keep their days, counts, distances, fetchedAt and raw activities")
    func buckets() async throws {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        try await withTemporaryStore(options: options) { store, _ in
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("legacy/activity-cache.json"))
            let zone = store.timeZone.identifier
            #expect(
                summary.cachesWritten == ["v2/heatmap/Ride,Run/\(zone)", "v2/heatmap/Run/\(zone)"])
            let both = try #require(try store.cachedHeatmap(of: ["Run", "Ride"]))
            #expect(
                both.value.heatmapDays.map(\.date.description) == [
                    "2026-02-26", "2026-02-27", "2026-02-28",
                ])
            #expect(both.value.heatmapDays.map(\.count) == [0, 2, 1])
            #expect(both.value.heatmapDays.map(\.total) == [0, 31500.5, 8012.3])
            #expect(both.value.activities == nil && both.isImported)
            #expect(
                both.computedAt
                    == foundationMilliseconds("2026-02-28T11:00:00Z").map(Date.init(milliseconds:)))
            let run = try #require(try store.cachedHeatmap(of: ["Run"]))
            #expect(run.computedAt == Date(timeIntervalSinceReferenceDate: 793_969_800))
            let activities =
                try JSONSerialization.jsonObject(with: try #require(run.value.activities))
                as? [[String: Any]]
            #expect(activities?.first?["name"] as? String == "Evening Run, with friends 🏃")
        }
    }
}
