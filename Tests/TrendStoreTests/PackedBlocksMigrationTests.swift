import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

@Suite("Blocks of format 3 (migration 0008)")
struct PackedBlocksMigrationTests {
    /// The block format of every stored block, by key.
    private static func blockVersions(of store: TrendStore) throws -> [[UInt8]: UInt8] {
        try store.engine.read { txn in
            var versions: [[UInt8]: UInt8] = [:]
            try txn.withCursor(try store.engine.storage.formatTwoDatabases().blocks) {
                try $0.forEach { key, value in
                    versions[Array(key)] = value.first
                    return true
                }
            }
            return versions
        }
    }

    private static func grid(of store: TrendStore) throws -> String? {
        try store.engine.read { try StorageFormat.storedGrid(meta: store.engine.meta, in: $0) }
    }

    @Test(
        "a store of format 6 or 7 opens as format 8 with its grid recorded; its blocks stay format 2 until a write changes them, and read the same"
    )
    func migratesWithoutRewriting() async throws {
        for (grid, oldFormat) in [(RollupGrid.quarterHour, UInt32(6)), (.hour, 7)] {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            var options = StoreOptions()
            options.rollupGrid = grid
            options.timeZone = TimeZone(identifier: "America/Los_Angeles")
            var generator = SampleGenerator(seed: 8)
            let samples = generator.minuteSamples(from: 1_700_000_000_000, count: 30_000)
            let from = Date(milliseconds: 1_690_000_000_000)
            let to = Date(milliseconds: 1_800_000_000_000)
            do {
                let store = try TrendStore(directory: directory.url, options: options)
                try await store.write(samples, to: "energy", unit: "kcal")
                #expect(Set(try Self.blockVersions(of: store).values) == [3])
                try rewind(
                    store, rowVersion: CompactRowCodec.version, format: oldFormat,
                    forgetting: ["0008-packed-blocks", "0009-hour-phase"])
                #expect(try Self.grid(of: store) == (oldFormat == 7 ? "hour" : nil))
                await store.close()
            }
            let store = try TrendStore(directory: directory.url)
            #expect(try store.formatVersion == 9)
            #expect(try Self.grid(of: store) == grid.rawValue)
            #expect(store.rollupGrid == grid)
            let before = try Self.blockVersions(of: store)
            #expect(before.count >= 2 && Set(before.values) == [2], "\(before)")
            let read = try store.samples(of: "energy", from: from, to: to)
            #expect(read.map(\.value.bitPattern) == samples.map(\.value.bitPattern))
            #expect(try store.verify().isHealthy)

            // One sample after the last starts a block of format 3 and leaves the full one.
            let last = try #require(samples.last)
            let appended = Sample(
                startMilliseconds: last.endMilliseconds,
                endMilliseconds: last.endMilliseconds + 60_000, value: 0.25)
            try await store.write([appended], to: "energy", unit: "kcal")
            let afterAppend = try Self.blockVersions(of: store)
            let newKeys = Set(afterAppend.keys).subtracting(before.keys)
            #expect(!newKeys.isEmpty && newKeys.allSatisfy { afterAppend[$0] == 3 })
            #expect(before.keys.allSatisfy { afterAppend[$0] == 2 })
            // One sample inside the first block rewrites that block alone, in format 3.
            let inserted = Sample(
                startMilliseconds: samples[100].startMilliseconds + 1,
                endMilliseconds: samples[100].startMilliseconds + 2, value: 1.5)
            try await store.write([inserted], to: "energy", unit: "kcal")
            let afterInsert = try Self.blockVersions(of: store)
            let firstKey = try #require(before.keys.min { $0.lexicographicallyPrecedes($1) })
            #expect(afterInsert[firstKey] == 3)
            #expect(afterInsert.values.filter { $0 == 2 }.count >= before.count - 2)
            let expected = (samples + [appended, inserted]).sorted {
                ($0.startMilliseconds, $0.endMilliseconds) < (
                    $1.startMilliseconds, $1.endMilliseconds
                )
            }
            let reread = try store.samples(of: "energy", from: from, to: to)
            #expect(reread.map(\.value.bitPattern) == expected.map(\.value.bitPattern))
            #expect(reread.map(\.startMilliseconds) == expected.map(\.startMilliseconds))
            #expect(try store.verify().isHealthy)
        }
    }
}
