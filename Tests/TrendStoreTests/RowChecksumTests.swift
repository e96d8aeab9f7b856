import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// Rollup rows checked by CRC-32C (row version 3, store format 5) beside the CRC-32 rows
/// (version 2) that stores written before format 5 hold.
@Suite("Rollup row checksums")
struct RowChecksumTests {
    @Test("rows of version 2 (CRC-32) and 3 (CRC-32C) hold the same fields and read back the same")
    func bothVersionsRead() throws {
        let day: Int64 = 20_400
        let samples = (0..<300).map { index -> Sample in
            let start = day * TimeGrid.day + Int64(index) * 287_000
            return Sample(
                startMilliseconds: start, endMilliseconds: start + 5_000,
                value: 60 + Double(index % 70))
        }
        for kind in [SeriesKind.cumulative, .discrete] {
            let rollup = DayRollup.build(day: day, kind: kind, from: samples)
            let old = RollupRowCodec.encode(rollup, version: 2)
            let new = RollupRowCodec.encode(rollup)
            #expect(old.first == 2 && new.first == 3)
            #expect(old.count == new.count && old[1..<(old.count - 4)] == new[1..<(new.count - 4)])
            // The trailers: zlib's CRC-32 and CRC-32C (checked against its check value in
            // the hour-summary suite) of everything before them.
            let oldStored = old.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let newStored = new.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(oldStored == old.dropLast(4).withUnsafeBytes { ZlibCodec.crc32($0) })
            #expect(newStored == new.dropLast(4).withUnsafeBytes { CRC32C.checksum($0) })
            let fromOld = try old.withUnsafeBytes { try RollupRowCodec.decode($0, day: day) }
            let fromNew = try new.withUnsafeBytes { try RollupRowCodec.decode($0, day: day) }
            #expect(fromOld == fromNew)
            #expect(RollupRowCodec.encode(fromOld, version: 2) == old)
            #expect(RollupRowCodec.encode(fromNew) == new)
            // A version byte flipped to the other version is caught by the other checksum.
            for var row in [old, new] {
                row[0] = row[0] == 2 ? 3 : 2
                #expect(throws: RollupCodec.Damage.self) {
                    try row.withUnsafeBytes { try RollupRowCodec.decode($0, day: day) }
                }
            }
        }
    }

    @Test(
        "a format-4 store of version-2 rows opens as format 6: cumulative rows rebuilt in version 4 (migration 0007), discrete ones kept until a write makes its day's row version 3; same answers, verifies throughout"
    )
    func formatFourStoreKeepsWorking() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, directory in
            let first: Int64 = 20_400 * TimeGrid.day
            var generator = SampleGenerator(seed: 11)
            let energy = (0..<(20 * 96)).map { index -> Sample in
                let start =
                    first + Int64(index) * TimeGrid.quarterHour + generator.integer(in: 0...600_000)
                return Sample(
                    startMilliseconds: start, endMilliseconds: start + 420_000,
                    value: Double(generator.integer(in: 0...9_999)) / 1_000)
            }
            let heart = (0..<(20 * 288)).map { index -> Sample in
                let start = first + Int64(index) * 300_000 + generator.integer(in: 0...200_000)
                return Sample(
                    startMilliseconds: start, endMilliseconds: start,
                    value: Double(generator.integer(in: 50...170)))
            }
            try await store.write([
                SeriesSamples(series: "energy", unit: "kcal", samples: energy),
                SeriesSamples(
                    series: "heartRate", unit: "count/min", kind: .discrete, samples: heart),
            ])
            #expect(try Self.rowVersions(store) == [3, 4])
            let before = try Self.answers(store, from: first)

            // Back to format 4: every row rewritten in version 2, migrations 0006 and 0007
            // unrecorded.
            try rewind(
                store, rowVersion: RollupRowCodec.zlibChecksumVersion, format: 4,
                forgetting: [
                    "0006-row-checksums", "0007-compact-rows", "0008-packed-blocks",
                    "0009-hour-phase",
                ])
            #expect(try Self.rowVersions(store) == [2])
            #expect(try store.verify().isHealthy)
            #expect(try Self.answers(store, from: first) == before)
            await store.close()

            let reopened = try TrendStore(directory: directory)
            #expect(try reopened.formatVersion == 9)
            #expect(try reopened.appliedMigrations().last == "0009-hour-phase")
            #expect(try Self.rowVersions(reopened) == [2, 4])
            #expect(try reopened.verify().isHealthy)
            #expect(try Self.answers(reopened, from: first) == before)

            // One heart-rate reading on day 3: that day's row is rewritten in version 3.
            let added = Sample(
                startMilliseconds: first + 3 * TimeGrid.day + 1_000,
                endMilliseconds: first + 3 * TimeGrid.day + 1_000, value: 200)
            try await reopened.write([added], to: "heartRate", unit: "count/min", kind: .discrete)
            #expect(try Self.rowVersions(reopened) == [2, 3, 4])
            #expect(try reopened.verify().isHealthy)
            let after = try Self.answers(reopened, from: first)
            let changed = after.indices.filter { after[$0] != before[$0] }
            #expect(changed.count >= 2, "the day's quarter-hour and daily heart-rate buckets")
            #expect(after.contains { $0.maximum == 200 })
        }
    }

    /// The row versions stored, each once.
    private static func rowVersions(_ store: TrendStore) throws -> Set<UInt8> {
        try store.engine.read { txn in
            var versions: Set<UInt8> = []
            try txn.withCursor(try store.engine.storage.formatTwoDatabases().days) {
                try $0.forEach { _, value in
                    versions.insert(value[0])
                    return true
                }
            }
            return versions
        }
    }

    /// Quarter-hour and daily statistics of both series over the 20 days, read from rows
    /// and summaries, in Kathmandu (+5:45, so local days cut UTC hours into slots).
    private static func answers(_ store: TrendStore, from first: Int64) throws
        -> [StatisticsBucket]
    {
        let zone = try #require(TimeZone(identifier: "Asia/Kathmandu"))
        var buckets: [StatisticsBucket] = []
        for interval in [StatisticsInterval.minutes(15), .days(1)] {
            buckets += try store.statistics(
                of: "energy", from: Date(milliseconds: first),
                to: Date(milliseconds: first + 20 * TimeGrid.day), interval: interval,
                timeZone: zone, options: [.sum, .count]
            ).buckets
            buckets += try store.statistics(
                of: "heartRate", from: Date(milliseconds: first),
                to: Date(milliseconds: first + 20 * TimeGrid.day), interval: interval,
                timeZone: zone, options: [.average, .minimum, .maximum, .count, .mostRecent]
            ).buckets
        }
        return buckets
    }
}
