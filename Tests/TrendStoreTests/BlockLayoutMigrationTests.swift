import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
@testable import TrendStore

/// How many kill trials to run: a handful by default, `TRENDSTORE_CRASH_TRIALS` for the long run.
private let trialCount =
    Int(ProcessInfo.processInfo.environment["TRENDSTORE_CRASH_TRIALS"] ?? "") ?? 6

/// Format 1 → 2: a committed store of format 1 (240 days of watch-like energy, 102 blocks
/// of layout 1, written by the 1.0 writer) has its blocks rewritten in layout 2 in batches
/// when opened writable, killed or not, and answers as it did.
@Suite("Block layout migration", .serialized)
struct BlockLayoutMigrationTests {
    static let fixture = "stores/format-1/irregular-240-days"

    /// Every series' samples, read from a read-only handle (which migrates nothing).
    static func samples(at store: URL) throws -> [String: [Sample]] {
        var options = StoreOptions()
        options.readOnly = true
        let handle = try TrendStore(directory: store, options: options)
        return try Dictionary(
            uniqueKeysWithValues: handle.series().map {
                ($0.name, try handle.samples(of: $0.name, from: .distantPast, to: .distantFuture))
            })
    }

    /// The fixture's samples as its blocks of layout 1 give them: the reference.
    static let before: [String: [Sample]] = {
        let directory = try! TemporaryDirectory()
        defer { directory.remove() }
        return try! samples(at: try! Fixtures.copyOfStore(fixture, in: directory.url))
    }()

    /// The layout of each block of `store`, and their bytes in all.
    static func blocks(of store: TrendStore) throws -> (layouts: [UInt8], bytes: Int) {
        let storage = store.engine.storage
        return try store.engine.read { txn in
            var layouts: [UInt8] = []
            var bytes = 0
            for record in try storage.allSeriesRecords(in: txn) {
                try storage.forEachBlock(
                    of: record, startingFrom: .min / 2, through: .max / 2, in: txn
                ) { _, block, _ in
                    layouts.append(try BlockCodec.header(block).layout)
                    bytes += block.count
                    return true
                }
            }
            return (layouts, bytes)
        }
    }

    @Test("opened writable, every block becomes layout 2: same samples, fewer bytes, format 2")
    func migratesInPlace() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let old = try TrendStore(directory: copy, options: readOnly)
            let oldBlocks = try Self.blocks(of: old)
            #expect(try old.formatVersion == 1)
            #expect(oldBlocks.layouts.count == 102 && Set(oldBlocks.layouts) == [1])
            let oldCurve = try old.dayCurve(
                of: "activeEnergy", on: LocalDate(year: 2026, month: 7, day: 14)!)
            await old.close()

            let store = try TrendStore(directory: copy)
            let newBlocks = try Self.blocks(of: store)
            #expect(try store.formatVersion == Int(StorageFormat.current))
            #expect(
                try store.appliedMigrations().suffix(8) == [
                    "0002-blocks-to-layout-2", "0003-commit-stamps", "0004-sources",
                    "0005-change-log",
                    "0006-batched-row-rebuilds", "0007-store-bound-sealing", "0008-sample-ids",
                    "0009-whole-day-versions",
                ])
            #expect(newBlocks.layouts.count == 102 && Set(newBlocks.layouts) == [2])
            // 70% of this profile's gaps are 0: sparse gaps make the blocks a few percent smaller.
            #expect(Double(newBlocks.bytes) < 0.97 * Double(oldBlocks.bytes))
            for (name, samples) in Self.before {
                #expect(
                    try store.samples(of: name, from: .distantPast, to: .distantFuture) == samples)
            }
            #expect(
                try store.dayCurve(
                    of: "activeEnergy", on: LocalDate(year: 2026, month: 7, day: 14)!)
                    == oldCurve)
            #expect(try await store.verify().isHealthy)
            #expect(
                try store.engine.read { try store.engine.tables.meta.blockRewritePosition(in: $0) }
                    == nil)
        }
    }

    #if Encryption
        @Test(
            "an encrypted store of format 1 is migrated under its key: blocks resealed, same samples"
        )
        func migratesEncrypted() async throws {
            let fixture = "stores/format-1/los-angeles-encrypted"
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(fixture, in: directory.url)
                let source = try independentlyReadSamples(
                    Fixtures.path("stores/format-1/source.csv"))

                var readOnly = options
                readOnly.readOnly = true
                let old = try TrendStore(directory: copy, options: readOnly)
                #expect(try old.formatVersion == 1)
                #expect(Set(try Self.blocks(of: old).layouts) == [1])
                await old.close()

                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == Int(StorageFormat.current))
                #expect(Set(try Self.blocks(of: store).layouts) == [2])
                #expect(try store.encryptionCipher == "AES-256-GCM")
                for (name, samples) in source {
                    #expect(
                        try store.samples(of: name, from: .distantPast, to: .distantFuture)
                            == samples)
                }
                #expect(try await store.verify().isHealthy)
            }
        }
    #endif

    @Test("a store of a later format is refused with its format, writable or read-only")
    func laterFormatIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let store = try TrendStore(directory: directory.url)
                try store.engine.write { txn, _ in
                    try txn.put(
                        withUnsafeBytes(of: (StorageFormat.current + 1).littleEndian, Array.init),
                        forKey: Array("storage-format".utf8),
                        in: store.engine.tables.meta.database)
                }
                await store.close()
            }
            let refusal = StoreError.incompatibleFormat(
                "storage format \(StorageFormat.current + 1); this TrendStore reads formats 1 to \(StorageFormat.current)"
            )
            #expect(throws: refusal) { try TrendStore(directory: directory.url) }
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            #expect(throws: refusal) { try TrendStore(directory: directory.url, options: readOnly) }
        }
    }

    /// How long a migrating import takes from process start, measured once, so kills spread over it.
    static let importDuration: Double = {
        let directory = try! TemporaryDirectory()
        defer { directory.remove() }
        let copy = try! Fixtures.copyOfStore(fixture, in: directory.url)
        let started = Date()
        _ = try! CommandLineTool.run(["import", lateCSV(in: directory), "--store", copy.path])
        return Date().timeIntervalSince(started)
    }()

    /// A CSV of one sample of a series the fixture does not hold.
    static func lateCSV(in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.appendingPathComponent("late.csv").path
        try "series,start,end,value,unit\nlate,1790000000000,1790000060000,2.5,kcal\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "killed at a random moment of its migration, the store reads the same between batches and finishes at the next writable open",
        arguments: 0..<trialCount)
    func killDuringMigration(trial: Int) async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            var random = SeededGenerator(seed: UInt64(trial) &+ 1_000)
            _ = try await CommandLineTool.killed(
                ["import", try Self.lateCSV(in: directory), "--store", copy.path],
                after: .milliseconds(
                    Int(Double.random(in: 0...1.1, using: &random) * Self.importDuration * 1000)))

            // Between batches, read-only: the samples as they were, whatever layout each block is in.
            var stored = try Self.samples(at: copy)
            let late = stored.removeValue(forKey: "late")
            #expect(stored == Self.before)
            #expect(late == nil || late?.count == 1)
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let killed = try TrendStore(directory: copy, options: readOnly)
            let left = try Self.blocks(of: killed).layouts.filter { $0 == 1 }.count
            await killed.close()

            let store = try TrendStore(directory: copy)
            let blocks = try Self.blocks(of: store)
            #expect(Set(blocks.layouts) == [2] && blocks.layouts.count >= 102)
            #expect(try store.formatVersion == Int(StorageFormat.current))
            #expect(try await store.verify().isHealthy)
            for (name, samples) in Self.before {
                #expect(
                    try store.samples(of: name, from: .distantPast, to: .distantFuture) == samples)
            }
            print(
                "migration crash trial \(trial): killed with \(left) of 102 blocks in layout 1\(late == nil ? "" : ", the import committed"); finished, healthy, samples unchanged"
            )
        }
    }
}
