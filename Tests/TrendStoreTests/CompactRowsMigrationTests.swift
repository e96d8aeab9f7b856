import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore
import TrendStoreGenerator

/// Migration 0007 rebuilding a format-5 store's cumulative rows as version 4, in batches,
/// whole and killed part way in a child process.
@Suite("Compact rows migration", .serialized)
struct CompactRowsMigrationTests {
    private static let first: Int64 = 18_000 * TimeGrid.day
    private static let days: Int64 = 2_100
    private static let series = ["energy", "steps"]
    private static var rowCount: Int { series.count * Int(days) }

    /// A format-5 store (every row in version 3, migration 0007 unrecorded) of two
    /// cumulative series over 2,100 days, 4,200 rows: five batches. Returns its directory
    /// and its answers.
    private static func formatFiveStore() async throws -> (
        directory: TemporaryDirectory, answers: [String], freshRows: [UInt8: Int]
    ) {
        let directory = try TemporaryDirectory()
        let store = try TrendStore(directory: directory.url, options: .quarterHourGrid)
        var generator = SampleGenerator(seed: 21)
        var batches: [SeriesSamples] = []
        for series in Self.series {
            // Two-hourly samples at any offset, up to 13 minutes long: many cross a boundary.
            let samples = (0..<(days * 12)).map { index -> Sample in
                let start = first + index * 7_200_000 + generator.integer(in: 0...6_000_000)
                return Sample(
                    startMilliseconds: start,
                    endMilliseconds: start + generator.integer(in: 60_000...800_000),
                    value: Double(generator.integer(in: 0...99_999)) / 1_000)
            }
            batches.append(SeriesSamples(series: series, unit: "kcal", samples: samples))
        }
        try await store.write(batches)
        // Written fresh, most rows are of version 4, the sparsest days' of version 3 (smaller).
        let freshRows = try rowVersions(store)
        #expect(freshRows[4, default: 0] > rowCount / 2 && freshRows[2] == nil)
        try rewind(
            store, rowVersion: RollupRowCodec.version, format: 5,
            forgetting: ["0007-compact-rows", "0008-packed-blocks", "0009-hour-phase"])
        #expect(try rowVersions(store) == [3: rowCount])
        #expect(try store.verify().isHealthy)
        let answers = try answers(store)
        await store.close()
        return (directory, answers, freshRows)
    }

    /// Rows by version.
    private static func rowVersions(_ store: TrendStore) throws -> [UInt8: Int] {
        try store.engine.read { txn in
            var versions: [UInt8: Int] = [:]
            try txn.withCursor(try store.engine.storage.formatTwoDatabases().days) {
                try $0.forEach { _, value in
                    versions[value[0], default: 0] += 1
                    return true
                }
            }
            return versions
        }
    }

    /// Every series' daily and quarter-hour sums and counts over the last 30 days and its
    /// monthly ones over all of them, in Kathmandu (+5:45: days cut UTC hours into slots),
    /// and a weekday average in Los Angeles, as text carrying every value's bits.
    private static func answers(_ store: TrendStore) throws -> [String] {
        let kathmandu = try #require(TimeZone(identifier: "Asia/Kathmandu"))
        let end = Date(milliseconds: first + days * TimeGrid.day)
        var answers: [String] = []
        for series in Self.series {
            for (interval, from) in [
                (StatisticsInterval.minutes(15), end.addingTimeInterval(-30 * 86_400)),
                (.days(1), end.addingTimeInterval(-30 * 86_400)),
                (.months(1), Date(milliseconds: first)),
            ] {
                answers += try store.statistics(
                    of: series, from: from, to: end, interval: interval, timeZone: kathmandu,
                    options: [.sum, .count]
                ).buckets.map { "\($0.start) \($0.count ?? -1) \($0.sum?.bitPattern ?? 0)" }
            }
            let average = try store.weekdayAverage(
                of: series, weekday: .tuesday, now: end,
                timeZone: TimeZone(identifier: "America/Los_Angeles"))
            answers.append("\(average.averageHourlyPattern?.map(\.bitPattern) ?? [])")
        }
        return answers
    }

    /// A copy of the store in `directory` (its data file) in a fresh directory.
    private static func copy(of directory: TemporaryDirectory) throws -> TemporaryDirectory {
        let copy = try TemporaryDirectory()
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("data.mdb"),
            to: copy.url.appendingPathComponent("data.mdb"))
        return copy
    }

    @Test(
        "opened, a format-5 store's rows become in batches the rows a fresh write gives (version 4 but for the sparsest days), the same answers bit for bit; killed at a random moment, the migration leaves a store that verifies and answers the same, read-only, and finishes when opened"
    )
    func migration() async throws {
        let (template, before, freshRows) = try await Self.formatFiveStore()
        defer { template.remove() }
        do {
            let directory = try Self.copy(of: template)
            defer { directory.remove() }
            let store = try TrendStore(directory: directory.url)
            #expect(try store.formatVersion == 9)
            #expect(try store.appliedMigrations().last == "0009-hour-phase")
            #expect(try Self.rowVersions(store) == freshRows)
            #expect(try store.verify().isHealthy)
            #expect(try Self.answers(store) == before)
        }
        var random = SeededGenerator(seed: 300)
        for trial in 0..<4 {
            let directory = try Self.copy(of: template)
            defer { directory.remove() }
            let started = Date()
            // `prune` opens the store writable, which runs the migration, then removes nothing.
            let (child, _) = try CommandLineTool.start([
                "prune", "--before", "1900-01-01", "--store", directory.url.path,
            ])
            // The child opens in about 0.2 s and migrates in about 0.5 s more on a quiet machine.
            try await Task.sleep(
                for: .milliseconds(Int(Double.random(in: 0.1...0.8, using: &random) * 1_000)))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            do {
                let between = try TrendStore(directory: directory.url, options: readOnly)
                print(
                    "compact rows trial \(trial): killed after \(Date().timeIntervalSince(started)) s "
                        + "in format \(try between.formatVersion), rows by version "
                        + "\(try Self.rowVersions(between).sorted { $0.key < $1.key })")
                let report = try between.verify()
                #expect(report.isHealthy, "trial \(trial): \(report.problems)")
                #expect(try Self.answers(between) == before, "trial \(trial)")
            }
            let store = try TrendStore(directory: directory.url)
            #expect(try store.formatVersion == 9)
            #expect(try Self.rowVersions(store) == freshRows)
            #expect(try store.verify().isHealthy)
            #expect(try Self.answers(store) == before, "trial \(trial)")
        }
    }
}
