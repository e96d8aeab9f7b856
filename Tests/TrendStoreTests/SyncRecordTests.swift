import Foundation
import LMDB
import Testing
import TestSupport
import TrendStoreGenerator

@testable import TrendStore

/// The change log's records read back what was written, in either layout of sample
/// versions, and damaged records are refused, never a trap.
@Suite("Change-log records")
struct SyncRecordTests {
    static func entries(seed: UInt64, count: Int) -> [DayVersions.Entry] {
        var random = SeededGenerator(seed: seed)
        let origins = [StoreID.random(), StoreID.random(), StoreID.none]
        var start: Int64 = 1_780_000_000_000
        return (0..<count).map { index in
            start += Int64.random(in: 0...120_000, using: &random) + (index == 0 ? 0 : 1)
            let run = index / 50
            return DayVersions.Entry(
                start: start, end: start + Int64.random(in: 0...300_000, using: &random),
                version: ChangeVersion(
                    clock: 1_000_000 + UInt64(run) * 7, origin: origins[run % origins.count]),
                position: UInt64(run + 1))
        }
    }

    @Test("sample versions round-trip in layout 2", arguments: [1, 2, 49, 50, 1_440, 17_280])
    func layoutTwo(count: Int) throws {
        let zlib = ZlibCodec()
        let versions = DayVersions(sorted: Self.entries(seed: UInt64(count), count: count))
        let bytes = try versions.encoded(zlib: zlib)
        #expect(bytes.first == 2)
        #expect(try bytes.withUnsafeBytes { try DayVersions(bytes: $0, zlib: zlib) } == versions)
    }

    @Test("sample versions with ids round-trip in layout 3, and a damaged byte is refused")
    func layoutThree() throws {
        let zlib = ZlibCodec()
        var entries = Self.entries(seed: 11, count: 300)
        var random = SeededGenerator(seed: 5_405)
        for index in entries.indices where Int.random(in: 0..<3, using: &random) > 0 {
            entries[index].id = try SampleID(
                bytes: (0..<Int.random(in: 1...64, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                })
        }
        let versions = DayVersions(sorted: entries)
        let good = try versions.encoded(zlib: zlib)
        #expect(good.first == 3)
        #expect(try good.withUnsafeBytes { try DayVersions(bytes: $0, zlib: zlib) } == versions)
        #expect(good.withUnsafeBytes { DayVersions.newestPosition(in: $0) } == 6)
        for _ in 0..<1_000 {
            var bytes = good
            bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(
                in: 1...255, using: &random)
            #expect((try? bytes.withUnsafeBytes { try DayVersions(bytes: $0, zlib: zlib) }) == nil)
        }
    }

    @Test(
        "a record of layout 3 whose runs claim a billion entries is refused without reserving for them"
    )
    func layoutThreeHugeCount() throws {
        // The fuzzer's input (Tools/Fuzz, storage target): its runs add up to about 2^29
        // entries over an id section of a few bytes; reading it reserved 8.6 GB.
        let hex =
            "0101010102ffff01020000fffff7818383838300e1838484840001000008100000010000000000000f02fffffffdffff000008838383838300e10001000000000000000000"
        var bytes = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
        bytes[0] = 3
        let checksum = bytes.withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
        let zlib = ZlibCodec()
        #expect((try? bytes.withUnsafeBytes { try DayVersions(bytes: $0, zlib: zlib) }) == nil)
        // The id section itself: a count of 2^40 over 3 bytes reserved a terabyte (a trap).
        #expect(
            try [UInt8](repeating: 0, count: 3).withUnsafeBytes {
                try ByteReader.idSection($0, count: 1 << 40)
            } == nil)
    }

    @Test("a record of layout 1 (development builds of format 5) reads back")
    func layoutOne() throws {
        let zlib = ZlibCodec()
        let entries = Self.entries(seed: 9, count: 300)
        // Layout 1 as its documentation describes it, written here by hand.
        var origins: [StoreID] = []
        for entry in entries where !origins.contains(entry.version.origin) {
            origins.append(entry.version.origin)
        }
        var writer = ByteWriter(capacity: 4_096)
        writer.appendVarint(UInt64(origins.count))
        for origin in origins { writer.append(contentsOf: origin.bytes) }
        writer.appendVarint(UInt64(entries.count))
        var previous = DayVersions.Entry(start: 0, end: 0, version: .unrecorded, position: 0)
        for entry in entries {
            writer.appendZigZag(entry.start - previous.start)
            writer.appendZigZag(entry.end - entry.start)
            writer.appendZigZag(Int64(bitPattern: entry.version.clock &- previous.version.clock))
            writer.appendZigZag(Int64(bitPattern: entry.position &- previous.position))
            writer.appendVarint(UInt64(origins.firstIndex(of: entry.version.origin) ?? 0))
            previous = entry
        }
        let bytes = try DeflatedBytes.pack(writer.bytes, zlib: zlib)
        #expect(bytes.first.map { $0 >= 23 } == true)
        let read = try bytes.withUnsafeBytes { try DayVersions(bytes: $0, zlib: zlib) }
        #expect(read.entries == entries)
    }

    @Test("damaged records of sample versions are refused, never a trap")
    func damaged() throws {
        let zlib = ZlibCodec()
        let good = try DayVersions(sorted: Self.entries(seed: 3, count: 500)).encoded(zlib: zlib)
        var random = SeededGenerator(seed: 5_404)
        for _ in 0..<2_000 {
            var bytes = good
            if Bool.random(using: &random) {
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            } else {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(
                    in: 1...255, using: &random)
            }
            let read = try? bytes.withUnsafeBytes { try DayVersions(bytes: $0, zlib: zlib) }
            // Every byte is checked: a damaged record never reads as other versions.
            #expect(read == nil || bytes == good)
        }
    }

    @Test(
        "verify reads every change-log record: a damaged one of each kind is a problem of its own, the samples still checked"
    )
    func verifyReadsTheLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TrendStore(directory: directory.url)
        let first: Int64 = 1_780_000_000_000
        try await store.write(
            (0..<100).map {
                Sample(
                    startMilliseconds: first + $0 * 60_000,
                    endMilliseconds: first + $0 * 60_000 + 60_000, value: 1.5)
            }, to: "e", unit: "kcal")
        _ = try await store.deleteSamples(
            of: "e", from: Date(milliseconds: first), to: Date(milliseconds: first + 600_000))
        #expect(try await store.verify().isHealthy)
        let sync = try #require(store.engine.tables.sync)
        /// Overwrites the first record of `kind` with `bytes`.
        func damage(kind: UInt8, with bytes: [UInt8]) throws {
            try store.engine.write { txn, _ in
                var key: [UInt8] = []
                try sync.table.forEach(from: [kind], in: txn) { found, _ in
                    if found.first == kind { key = Array(found) }
                    return false
                }
                try #require(!key.isEmpty)
                try txn.put(bytes, forKey: key, in: sync.database)
            }
        }
        try damage(kind: SyncTable.Kind.dayVersions.rawValue, with: [2, 1, 0, 0, 0])
        var report = try await store.verify()
        #expect(report.problems.map(\.kind) == [.damagedChangeLog], "\(report.problems)")
        #expect(report.problems.first?.detail.contains("sample versions") == true)
        try damage(kind: SyncTable.Kind.commit.rawValue, with: [0xFF])
        try damage(kind: SyncTable.Kind.deletion.rawValue, with: [])
        report = try await store.verify()
        #expect(report.problems.map(\.kind) == Array(repeating: .damagedChangeLog, count: 3))
        // The samples are still read and checked: the series' blocks and rows are healthy.
        #expect(report.blocksChecked > 0 && report.rollupsChecked > 0)
        let verify = try CommandLineTool.run(["verify", "--store", directory.url.path])
        #expect(verify.status == 3, "\(verify.output)")
        await store.close()
    }
}
