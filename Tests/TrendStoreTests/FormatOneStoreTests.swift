import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// The stores of format 1 committed under `Fixtures/stores/format-1/` (FORMAT.md): every
/// later release must open them and answer as their source file says, read-only as they
/// are and writable after its migrations (format 2: ``BlockLayoutMigrationTests``). They
/// are never regenerated; a change to what is stored comes with a migration that opens them.
@Suite("Stores of format 1")
struct FormatOneStoreTests {
    /// A committed store, with the zone and grid it was created with.
    struct Fixture: Sendable, CustomStringConvertible {
        let directory: String
        let zone: TimeZone
        let grid: RollupGrid
        let hourSummaryMinute: Int
        var description: String { directory }
    }

    static let fixtures = [
        Fixture(
            directory: "stores/format-1/los-angeles-quarter-hour",
            zone: TimeZone(identifier: "America/Los_Angeles")!, grid: .quarterHour,
            hourSummaryMinute: 0),
        Fixture(
            directory: "stores/format-1/kolkata-hour", zone: TimeZone(identifier: "Asia/Kolkata")!,
            grid: .hour, hourSummaryMinute: 30),
    ]
    /// The instant the fixtures' caches were refreshed at (`cache refresh --now`).
    static let refreshedAt: Int64 = 1_773_082_800_000  // 2026-03-09T19:00:00Z

    @Test(
        "a committed store of format 1 opens read-only and writable, verifies, and answers as its source file and the wall-clock reference say",
        arguments: fixtures)
    func opensAndAnswers(_ fixture: Fixture) async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(fixture.directory, in: directory.url)
            // Figures computed without the engine: the source file read by plain splitting, the
            // 30-second wall-clock reference and the reference statistics.
            let source = try independentlyReadSamples(Fixtures.path("stores/format-1/source.csv"))
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let before = try TrendStore(directory: copy, options: readOnly)
            // Read-only: nothing migrates; its blocks of layout 1 are read as they are.
            #expect(try before.appliedMigrations() == ["0001-v1-average-to-v2-weekday-averages"])
            try Self.expectAnswers(of: before, format: 1, fixture: fixture, source: source)
            await before.close()

            // Writable: its blocks are rewritten in layout 2 and it records format 8.
            let store = try TrendStore(directory: copy)
            #expect(
                try store.appliedMigrations() == [
                    "0001-v1-average-to-v2-weekday-averages", "0002-blocks-to-layout-2",
                    "0003-commit-stamps", "0004-sources", "0005-change-log",
                    "0006-batched-row-rebuilds", "0007-store-bound-sealing", "0008-sample-ids",
                    "0009-whole-day-versions",
                ])
            try Self.expectAnswers(of: store, format: 9, fixture: fixture, source: source)
            // Writable: a new sample lands and the store still verifies.
            let late = Sample(
                startMilliseconds: Self.refreshedAt, endMilliseconds: Self.refreshedAt + 60_000,
                value: 1.5)
            try await store.write([late], to: "activeEnergy", unit: "kcal")
            #expect(
                try store.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture).count
                    == (source["activeEnergy"]?.count ?? 0) + 1)
            #expect(try await store.verify().isHealthy)
        }
    }

    /// Checks the store's settings, samples, day curves, heatmap, statistics and cached
    /// weekday averages against `source`.
    static func expectAnswers(
        of store: TrendStore, format: Int, fixture: Fixture, source: [String: [Sample]]
    ) throws {
        #expect(try store.formatVersion == format)
        #expect(store.rollupGrid == fixture.grid)
        #expect(store.hourSummaryMinute == fixture.hourSummaryMinute)
        #expect(store.defaultTimeZone == fixture.zone)
        #expect(try store.verify().isHealthy)
        #expect(Set(try store.series().map(\.name)) == Set(source.keys))
        for (name, samples) in source {
            #expect(try store.samples(of: name, from: .distantPast, to: .distantFuture) == samples)
        }
        let energy = try #require(source["activeEnergy"])
        let heartRate = try #require(source["heartRate"])
        let activities = source.filter { $0.key != "activeEnergy" && $0.key != "heartRate" }
        // Its own zone (summaries or slots) and one whose hours it has no summary for.
        for zone in [fixture.zone, TimeZone(identifier: "Asia/Kathmandu")!] {
            let reference = ReferenceAggregator(zone: zone)
            for day in 6...10 {
                let date = LocalDate(year: 2026, month: 3, day: day)!
                var running = 0.0
                let expected = reference.detailedFigures(of: date, samples: energy).hourly.map {
                    running += $0
                    return running
                }
                let curve = try store.dayCurve(of: "activeEnergy", on: date, timeZone: zone)
                let wrong = (0..<24).filter {
                    !approximatelyEqual(curve.cumulative[$0], expected[$0], scale: running)
                }
                #expect(wrong.isEmpty, "\(date) in \(zone.identifier): hours \(wrong)")
            }
            let heatmap = try store.heatmap(
                of: Array(activities.keys), from: LocalDate("2026-03-05")!,
                through: LocalDate("2026-03-11")!, timeZone: zone)
            for day in heatmap.days {
                let expected = activities.values.joined().filter {
                    reference.date(of: $0.startMilliseconds) == day.date
                }.count
                #expect(day.count == expected, "heatmap \(day.date) in \(zone.identifier)")
            }
            let from = Date(milliseconds: 1_772_668_800_000)  // 2026-03-05T00:00Z
            let to = Date(milliseconds: 1_773_187_200_000)  // 2026-03-11T00:00Z
            let statistics = try store.statistics(
                of: "heartRate", from: from, to: to, interval: .days(1), timeZone: zone,
                options: [.sum, .average, .minimum, .maximum, .count, .mostRecent])
            let expectedBuckets = ReferenceStatistics(zone: zone).statistics(
                samples: heartRate, discrete: true, from: from.millisecondsSince1970,
                to: to.millisecondsSince1970, interval: .days(1), anchor: nil)
            StatisticsReferenceTests.compare(
                statistics.buckets, expectedBuckets, "heart rate in \(zone.identifier)")
        }
        // Its cached weekday averages, computed by the build that wrote it, are served and
        // agree with the reference for the instant they were computed at.
        let reference = ReferenceAggregator(zone: fixture.zone)
        for weekday in Weekday.allCases {
            let cached = try #require(
                try store.cachedWeekdayAverage(
                    of: "activeEnergy", weekday: weekday, timeZone: fixture.zone))
            #expect(cached.computedAt == Date(milliseconds: refreshedAt))
            let expected = reference.weekdayAverage(
                samples: energy, weekday: weekday.rawValue, now: refreshedAt)
            #expect(cached.value.days == expected.days, "\(weekday)")
            let pattern = cached.value.averageHourlyPattern
            #expect((pattern == nil) == (expected.pattern == nil), "\(weekday)")
            if let pattern, let expectedPattern = expected.pattern {
                #expect(
                    zip(pattern, expectedPattern).allSatisfy {
                        approximatelyEqual($0, $1, scale: expectedPattern.last ?? 1)
                    }, "\(weekday): \(pattern) vs \(expectedPattern)")
            }
        }
    }

    @Test(
        "a store of a development build (format-version 1 to 9 in meta, or the earliest's chunk window alone) is refused with how to bring it over",
        arguments: [
            ("format-version", [9, 0, 0, 0], 9), ("format-version", [2, 0, 0, 0], 2),
            ("chunk-window-ms", [0, 92, 38, 36, 0, 0, 0, 0], 1),
        ])
    func developmentStoreIsRefused(key: String, value: [UInt8], format: Int) async throws {
        try await withTemporaryDirectory { directory in
            do {
                let store = try TrendStore(directory: directory.url)
                try store.engine.write { txn, _ in
                    try txn.put(
                        value, forKey: Array(key.utf8), in: store.engine.tables.meta.database)
                    if format == 1 {
                        _ = try txn.delete(
                            forKey: Array("storage-format".utf8),
                            in: store.engine.tables.meta.database)
                    }
                }
                await store.close()
            }
            let message =
                "this store was written by a development build of TrendStore (format \(format)); "
                + "export it with that build and import it again"
            #expect(throws: StoreError.incompatibleFormat(message)) {
                try TrendStore(directory: directory.url)
            }
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            #expect(throws: StoreError.incompatibleFormat(message)) {
                try TrendStore(directory: directory.url, options: readOnly)
            }
            let info = try CommandLineTool.run(["info", "--store", directory.url.path])
            #expect(info.status != 0 && info.output.contains(message), "\(info.output)")
        }
    }

    @Test(
        "the earliest development store (meta with a chunk window, chunks, no blocks) is refused read-only and writable, and nothing is created in it"
    )
    func earliestDevelopmentStore() async throws {
        try withTemporaryDirectory { directory in
            do {
                let environment = try Environment(path: directory.url.path)
                let meta = try environment.openDatabase(named: "meta")
                let chunks = try environment.openDatabase(named: "chunks")
                try environment.write { txn in
                    try txn.put(
                        withUnsafeBytes(of: (7 * 86_400_000 as Int64).littleEndian, Array.init),
                        forKey: Array("chunk-window-ms".utf8), in: meta)
                    try txn.put(Array("UTC".utf8), forKey: Array("time-zone".utf8), in: meta)
                    try txn.put([1, 2, 3], forKey: [0, 0, 0, 1], in: chunks)
                }
            }
            let message =
                "this store was written by a development build of TrendStore (format 1); "
                + "export it with that build and import it again"
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            #expect(throws: StoreError.incompatibleFormat(message)) {
                try TrendStore(directory: directory.url, options: readOnly)
            }
            #expect(throws: StoreError.incompatibleFormat(message)) {
                try TrendStore(directory: directory.url)
            }
            var options = Environment.Options()
            options.readOnly = true
            let environment = try Environment(path: directory.url.path, options: options)
            #expect(throws: LMDBError.self) { try environment.openDatabase(named: "blocks") }
        }
    }
}
