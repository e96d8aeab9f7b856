import Foundation
import Testing
import TestSupport
import TrendStore

/// Stores written by earlier releases (format 1 of 2026-11-23; formats 6 and 7 of 2026-11-24),
/// committed under `Fixtures/stores/`, so later formats prove they open, answer and migrate them.
@Suite("Stores written by earlier releases")
struct StoreFixtureTests {
    private static let zone = TimeZone(identifier: "America/Los_Angeles")!

    @Test(
        "a store of an earlier release opens read-only and answers as its source file says; opened, it migrates to format 8, verifies and answers the same",
        arguments: ["stores/v1-la-3-days", "stores/v6-la-3-days", "stores/v7-la-3-days"])
    func earlierStore(_ path: String) async throws {
        let fixture = Fixtures.path(path)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = directory.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixture + "/data.mdb", toPath: copy.appendingPathComponent("data.mdb").path)
        // Figures computed without the engine: the source file read by plain splitting, and
        // the 30-second wall-clock reference.
        let source = try independentlyReadSamples(
            Fixtures.path("stores/v1-la-3-days") + "/source.csv")
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let before = try TrendStore(directory: copy, options: readOnly)
        let oldFormat = try before.formatVersion
        #expect(oldFormat < 8)
        #expect(try before.verify().isHealthy)
        try Self.expectAnswers(of: before, as: source)
        await before.close()

        // Opened in a zone a quarter-hour off UTC, the migrated store keeps the UTC hours
        // its summaries were built in.
        var kathmandu = StoreOptions()
        kathmandu.timeZone = TimeZone(identifier: "Asia/Kathmandu")
        let store = try TrendStore(directory: copy, options: kathmandu)
        #expect(try store.formatVersion == 9)
        #expect(store.hourSummaryMinute == 0)
        #expect(try store.verify().isHealthy)
        try Self.expectAnswers(of: store, as: source)
    }

    /// Checks the store's samples, day curves, heatmap and cached weekday average against
    /// `source`, the fixtures' source file.
    private static func expectAnswers(of store: TrendStore, as source: [String: [Sample]]) throws {
        let energy = try #require(source["activeEnergy"])
        #expect(
            try store.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture) == energy)
        let reference = ReferenceAggregator(zone: Self.zone)
        for day in 6...9 {
            let date = LocalDate(year: 2026, month: 3, day: day)!
            let expected = reference.detailedFigures(of: date, samples: energy)
            var running = 0.0
            let cumulative = expected.hourly.map {
                running += $0
                return running
            }
            let actual = try store.dayCurve(of: "activeEnergy", on: date, timeZone: Self.zone)
            for hour in 0..<24 where !approximatelyEqual(actual.cumulative[hour], cumulative[hour])
            {
                Issue.record(
                    "\(date) hour \(hour): \(actual.cumulative[hour]) vs \(cumulative[hour])")
                break
            }
        }
        let activities = source.filter { $0.key != "activeEnergy" }
        let heatmap = try store.heatmap(
            of: Array(activities.keys), from: LocalDate("2026-03-06")!,
            through: LocalDate("2026-03-09")!, timeZone: Self.zone)
        #expect(
            heatmap.days.map(\.count).reduce(0, +) == activities.values.map(\.count).reduce(0, +))
        // Its cached weekday averages, computed by the release that wrote it, are served.
        #expect(
            try store.cachedWeekdayAverage(
                of: "activeEnergy", weekday: .sunday, timeZone: Self.zone) != nil)
    }
}
