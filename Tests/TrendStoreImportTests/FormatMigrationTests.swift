import Foundation
import Testing
import TestSupport
@testable import TrendStore
import TrendStoreGenerator

/// The format-1 store of `Fixtures/stores/v1-la-42-days` migrating to format 2: whole, and
/// killed part way in a child process.
@Suite("Storage format migration", .serialized)
struct FormatMigrationTests {
    private static let fixture = Fixtures.path("stores/v1-la-42-days")

    /// The fixture's samples as the generator that made it writes them (an identity's last
    /// value wins), computed without the store.
    static let expected: [String: [Sample]] = {
        var configuration = DatasetGenerator.Configuration(
            days: 42, endDate: LocalDate(year: 2026, month: 3, day: 15)!)
        configuration.seed = 12
        configuration.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        var byIdentity: [String: [Pair: Double]] = [:]
        DatasetGenerator(configuration).generate { part in
            for sample in part.samples {
                byIdentity[part.series, default: [:]][
                    Pair(start: sample.startMilliseconds, end: sample.endMilliseconds)] =
                    sample.value
            }
        }
        return byIdentity.mapValues { identities in
            identities.sorted { ($0.key.start, $0.key.end) < ($1.key.start, $1.key.end) }.map {
                Sample(
                    startMilliseconds: $0.key.start, endMilliseconds: $0.key.end, value: $0.value)
            }
        }
    }()

    struct Pair: Hashable {
        let start: Int64
        let end: Int64
    }

    /// A copy of the fixture store in a fresh directory.
    private static func copy() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: fixture + "/data.mdb",
            toPath: directory.url.appendingPathComponent("data.mdb").path)
        return directory
    }

    /// Checks that `store` holds exactly the fixture's samples, bit for bit, and verifies.
    private static func expectFixtureSamples(_ store: TrendStore, _ context: String) throws {
        let report = try store.verify()
        #expect(report.isHealthy, "\(context): \(report.problems)")
        #expect(Set(try store.series().map(\.name)) == Set(expected.keys), "\(context)")
        for (series, samples) in expected {
            let stored = try store.samples(of: series, from: .distantPast, to: .distantFuture)
            #expect(
                stored.count == samples.count
                    && zip(stored, samples).allSatisfy {
                        $0.startMilliseconds == $1.startMilliseconds
                            && $0.endMilliseconds == $1.endMilliseconds
                            && $0.value.bitPattern == $1.value.bitPattern
                    }, "\(context): \(series)")
        }
    }

    @Test(
        "read-only, the format-1 store answers as the generator says; opened, it migrates to format 6 and answers the same, every series cumulative, the energy rows of version 4"
    )
    func migratesWhole() throws {
        let directory = try Self.copy()
        defer { directory.remove() }
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let date = LocalDate(year: 2026, month: 3, day: 9)!
        let before: (DayCurve, HeatmapDay?)
        let statisticsBefore: [StatisticsBucket]
        do {
            let old = try TrendStore(directory: directory.url, options: readOnly)
            #expect(try old.formatVersion == 1)
            try Self.expectFixtureSamples(old, "format 1, read-only")
            before = (
                try old.dayCurve(of: "activeEnergy", on: date, timeZone: zone),
                try old.heatmap(
                    of: ["Run", "Ride", "Walk"], from: date, through: date, timeZone: zone
                )
                .days.first
            )
            statisticsBefore = try Self.quarterHourStatistics(old)
        }
        let store = try TrendStore(directory: directory.url)
        #expect(try store.formatVersion == 9)
        #expect(try store.appliedMigrations().last == "0009-hour-phase")
        try Self.expectFixtureSamples(store, "migrated")
        try Self.expectRowsMigrated(store, "migrated")
        // Every series of the old store is cumulative, and its record now says so.
        let recordsSayKind = try store.engine.read { txn in
            try txn.withCursor(store.engine.storage.series) { cursor in
                var all = true
                try cursor.forEach { _, bytes in
                    all = all && SeriesRecord.recordsKind(bytes)
                    return true
                }
                return all
            }
        }
        #expect(recordsSayKind)
        #expect(try store.series().map(\.name).contains("activeEnergy"))
        #expect(try store.series().allSatisfy { $0.kind == .cumulative })
        let after = try store.dayCurve(of: "activeEnergy", on: date, timeZone: zone)
        for hour in 0..<24 {
            #expect(approximatelyEqual(after.cumulative[hour], before.0.cumulative[hour]))
        }
        #expect(
            try store.heatmap(
                of: ["Run", "Ride", "Walk"], from: date, through: date, timeZone: zone
            )
            .days.first == before.1)
        // Statistics read format-1 slots before, format-2 slots after (sums within 1e-9: format
        // 1 added them in another order), in a zone whose days cut UTC hours into slots.
        let statisticsAfter = try Self.quarterHourStatistics(store)
        #expect(statisticsAfter.count == statisticsBefore.count)
        #expect(statisticsAfter.contains { ($0.count ?? 0) > 0 })
        for (after, before) in zip(statisticsAfter, statisticsBefore) {
            #expect(after.start == before.start && after.count == before.count)
            #expect(approximatelyEqual(after.sum ?? -1, before.sum ?? -1))
        }
    }

    /// Quarter-hour and daily energy statistics of the fixture's last two weeks in Kathmandu.
    private static func quarterHourStatistics(_ store: TrendStore) throws -> [StatisticsBucket] {
        let zone = try #require(TimeZone(identifier: "Asia/Kathmandu"))
        let end = try #require(
            ISO8601DateFormatter().date(from: "2026-03-20T00:00:00Z"))
        return try [StatisticsInterval.minutes(15), .days(1)].flatMap { interval in
            try store.statistics(
                of: "activeEnergy", from: end.addingTimeInterval(-14 * 86_400), to: end,
                interval: interval, timeZone: zone, options: [.sum, .count]
            ).buckets
        }
    }

    @Test(
        "a migration killed at a random moment leaves a store that answers right, read-only, and finishes when opened",
        arguments: 0..<6)
    func killDuringMigration(trial: Int) async throws {
        let directory = try Self.copy()
        defer { directory.remove() }
        var random = SeededGenerator(seed: UInt64(100 + trial))
        // `prune` opens the store writable, which runs the migration, then removes nothing.
        let (child, _) = try CommandLineTool.start([
            "prune", "--before", "1900-01-01", "--store", directory.url.path,
        ])
        try await Task.sleep(
            for: .milliseconds(
                Int(Double.random(in: 0...1.1, using: &random) * Self.migrationSeconds * 1000)))
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()

        var readOnly = StoreOptions()
        readOnly.readOnly = true
        do {
            let between = try TrendStore(directory: directory.url, options: readOnly)
            try Self.expectFixtureSamples(between, "killed in trial \(trial), read-only")
            let pieces = try between.engine.read { txn in
                let storage = between.engine.storage
                let record = try storage.requireSeries(named: "activeEnergy", in: txn)
                return try storage.pieces(of: record, startingFrom: .min, through: .max, in: txn)
            }
            let chunks = pieces.filter { if case .chunk = $0 { true } else { false } }.count
            print(
                "migration trial \(trial): killed in format \(try between.formatVersion) with "
                    + "\(chunks) format-1 chunks and \(pieces.count - chunks) blocks of activeEnergy, "
                    + "rows by version \(try Self.rowVersions(between).sorted { $0.key < $1.key })"
            )
        }
        let store = try TrendStore(directory: directory.url)
        #expect(try store.formatVersion == 9)
        try Self.expectRowsMigrated(store, "killed in trial \(trial), then opened")
        try Self.expectFixtureSamples(store, "killed in trial \(trial), then opened")
    }

    /// How many format-2 rows of each version the store holds, of every series or of one.
    private static func rowVersions(_ store: TrendStore, series: String? = nil) throws
        -> [UInt8: Int]
    {
        try store.engine.read { txn in
            // A read-only handle on a format-1 store has no `days` database yet.
            guard let days = try? store.engine.storage.formatTwoDatabases().days else {
                return [:]
            }
            let id = try series.map {
                try store.engine.storage.requireSeries(named: $0, in: txn).id
            }
            var versions: [UInt8: Int] = [:]
            try txn.withCursor(days) {
                try $0.forEach { key, value in
                    if id == nil || StorageKey.parseDayRow(key)?.series == id {
                        versions[value[0], default: 0] += 1
                    }
                    return true
                }
            }
            return versions
        }
    }

    /// Checks that no row of version 2 is left and every energy row (a day of minute
    /// samples) is of version 4; the activities' rows, a sample or two a day, are smaller
    /// in version 3 and stay in it.
    private static func expectRowsMigrated(_ store: TrendStore, _ context: String) throws {
        let all = try rowVersions(store)
        #expect(all[2] == nil && all[4, default: 0] >= 42, "\(context): \(all)")
        let energy = try rowVersions(store, series: "activeEnergy")
        #expect(Array(energy.keys) == [4], "\(context): \(energy)")
    }

    /// How long the CLI takes to open and migrate the fixture, measured once, so kills spread over it.
    static let migrationSeconds: Double = {
        let directory = try! copy()
        defer { directory.remove() }
        let started = Date()
        _ = try! CommandLineTool.run([
            "prune", "--before", "1900-01-01", "--store", directory.url.path,
        ])
        return Date().timeIntervalSince(started)
    }()
}
