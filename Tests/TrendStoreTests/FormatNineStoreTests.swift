import Foundation
import Testing
import TestSupport

@testable import TrendStore

/// The store of format 9 committed under `Fixtures/stores/format-9/los-angeles-whole-days/`:
/// the store of format 8 beside it, migrated, then three UTC days of `standMinutes` (a
/// minute each, valued minute mod 5) written in one commit but the third day's last minute;
/// the second day's minute 100 deleted; the third day's last minute written. So the first
/// day's versions name no identity (layout 4), the second's list them (a deletion listed
/// them first), and the third's name none with one later commit's record over them. Every
/// later release must open it read-only and writable and read the same samples and versions.
/// Never regenerated.
@Suite("The store of format 9")
struct FormatNineStoreTests {
    static let fixture = "stores/format-9/los-angeles-whole-days"

    /// The three days' UTC midnights: 2026-03-13, 14 and 15.
    static let days: [Int64] = [1_773_360_000_000, 1_773_446_400_000, 1_773_532_800_000]

    /// The day of `start`'s minutes `minutes`.
    static func minutes(of start: Int64, _ minutes: Range<Int>) -> [Sample] {
        minutes.map {
            Sample(
                startMilliseconds: start + Int64($0) * 60_000,
                endMilliseconds: start + Int64($0 + 1) * 60_000, value: Double($0 % 5))
        }
    }

    /// The samples the store holds of `standMinutes`.
    static let expected =
        minutes(of: days[0], 0..<1_440) + minutes(of: days[1], 0..<100)
        + minutes(of: days[1], 101..<1_440) + minutes(of: days[2], 0..<1_440)

    /// The first byte of each day's stored record of versions (its layout), and how many
    /// records later commits laid over it.
    static func layouts(of store: TrendStore) throws -> [(layout: UInt8?, over: Int)] {
        let table = try #require(store.engine.storage.sync)
        return try store.engine.read { txn in
            let record = try store.engine.storage.requireSeries(named: "standMinutes", in: txn)
            return try days.map { start in
                let key = StreamDay(stream: record.id, day: start / TimeGrid.day)
                return (
                    try table.table.withValue(forKey: SyncTable.key(key), in: txn) { $0.first }
                        ?? nil,
                    try table.table.keys(
                        prefix: SyncTable.key(key, kind: .versionDelta), in: txn
                    ).count
                )
            }
        }
    }

    @Test("it opens read-only and writable and reads the same samples and versions")
    func opensAndAnswers() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let formatFive = try FormatFiveStoreTests.expectedSamples()
            for options in [StoreOptions().readingOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == 9)
                #expect(try store.appliedMigrations().last == "0009-whole-day-versions")
                try FormatSevenSyncedStoreTests.expectSamplesAndCurves(
                    of: store, expected: formatFive)
                #expect(
                    try store.samples(of: "standMinutes", from: .distantPast, to: .distantFuture)
                        == Self.expected)
                let layouts = try Self.layouts(of: store)
                #expect(layouts.map(\.layout) == [4, 2, 4])
                #expect(layouts.map(\.over) == [0, 0, 1])
                let written = try #require(
                    try store.changes(since: nil).written.first { $0.series == "standMinutes" })
                #expect(written.samples == Self.expected)
                let first = try #require(written.versions.first)
                #expect(written.versions.dropLast().allSatisfy { $0 == first })
                #expect(try #require(written.versions.last) > first)
                #expect(try await store.verify().isHealthy)
                await store.close()
            }
            // Written again: a minute over the first day's record, then a deletion there.
            let store = try TrendStore(directory: copy)
            let anchor = try store.changes(since: nil).anchor
            var changed = Self.minutes(of: Self.days[0], 7..<8)
            changed[0].value = 40
            try await store.write(changed, to: "standMinutes", unit: "min")
            #expect(try store.changes(since: anchor).written.first?.samples == changed)
            #expect(
                try await store.deleteSamples(
                    of: "standMinutes",
                    from: Date(timeIntervalSince1970: Double(Self.days[0]) / 1_000),
                    to: Date(timeIntervalSince1970: Double(Self.days[0] + 60_000) / 1_000)) == 1)
            #expect(try Self.layouts(of: store).map(\.layout) == [2, 2, 4])
            var now = Self.expected
            now[7] = changed[0]
            now.removeFirst()
            #expect(
                try store.samples(of: "standMinutes", from: .distantPast, to: .distantFuture)
                    == now)
            #expect(try await store.verify().isHealthy)
            await store.close()
        }
    }
}
