import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// `trendstore verify` on files LMDB cannot read as they claim (issue 32, item 9): one line,
/// exit status 3, never a signal; the library throws instead of faulting.
@Suite("Verify on damaged files")
struct DamagedStoreVerifyTests {
    static let marker = "zz-marker-series"

    /// A store of two commits with a series named ``marker``; returns its directory.
    static func makeStore(in directory: TemporaryDirectory) async throws -> URL {
        let url = directory.url.appendingPathComponent("store")
        let store = try TrendStore(directory: url)
        try await store.write(
            [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: marker,
            unit: "kcal")
        try await store.write(
            [Sample(startMilliseconds: 60_000, endMilliseconds: 120_000, value: 2)], to: "other",
            unit: "kcal")
        await store.close()
        return url
    }

    static func rewrite(_ url: URL, _ change: (inout [UInt8]) -> Void) throws {
        let file = url.appendingPathComponent("data.mdb")
        var bytes = [UInt8](try Data(contentsOf: file))
        change(&bytes)
        try Data(bytes).write(to: file)
    }

    @Test("a file that is not LMDB's is unreadable: exit 3, one line")
    func notLMDB() async throws {
        try await withTemporaryDirectory { directory in
            let url = try await Self.makeStore(in: directory)
            try Self.rewrite(url) { bytes in
                for index in 0..<8192 { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
            }
            let result = try CommandLineTool.run(["verify", "--store", url.path])
            #expect(result.status == 3, "\(result.output)")
            #expect(result.output.hasPrefix("trendstore: store \(url.path) is unreadable: "))
            #expect(result.output.split(separator: "\n").count == 1, "\(result.output)")
        }
    }

    @Test("a node claiming 2 GiB is reported by verify and thrown by reads, never read")
    func absurdValueSize() async throws {
        try await withTemporaryDirectory { directory in
            let url = try await Self.makeStore(in: directory)
            var damaged = 0
            try Self.rewrite(url) { bytes in
                // The series record's node: size (lo, hi), flags, key size, then the key.
                let name = Array(Self.marker.utf8)
                var index = 8
                while index + name.count <= bytes.count {
                    if bytes[index] == name[0], Array(bytes[index..<(index + name.count)]) == name,
                        bytes[index - 2] == UInt8(name.count), bytes[index - 1] == 0,
                        bytes[index - 4] == 0, bytes[index - 3] == 0
                    {
                        bytes.replaceSubrange(
                            (index - 8)..<(index - 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
                        damaged += 1
                    }
                    index += 1
                }
            }
            #expect(damaged > 0)
            let result = try CommandLineTool.run(["verify", "--store", url.path])
            #expect(result.status == 3, "\(result.output)")
            #expect(
                result.output.contains("MDB_CORRUPTED") || result.output.contains("damaged page"),
                "\(result.output)")
            var options = StoreOptions()
            options.readOnly = true
            let store = try TrendStore(directory: url, options: options)
            #expect(throws: StoreError.self) { _ = try store.series() }
        }
    }

    @Test("a damaged newest meta page, which makes LMDB open an earlier commit, is reported")
    func olderRoot() async throws {
        try await withTemporaryDirectory { directory in
            let url = try await Self.makeStore(in: directory)
            try Self.rewrite(url) { bytes in
                // Each meta page: a 16-byte header, then the transaction id at 128 bytes in.
                func id(_ page: Int) -> UInt64 {
                    bytes[(page * 4096 + 144)..<(page * 4096 + 152)].reversed().reduce(0) {
                        $0 << 8 | UInt64($1)
                    }
                }
                let newest = id(0) > id(1) ? 0 : 1
                for offset in 0..<8 { bytes[newest * 4096 + 144 + offset] = 0 }
            }
            let result = try CommandLineTool.run(["verify", "--store", url.path, "--json"])
            #expect(result.status == 3, "\(result.output)")
            #expect(result.output.contains("damagedMetaPage"), "\(result.output)")
            // info shows what LMDB opened, and says it is an earlier commit.
            let info = try CommandLineTool.run(["info", "--store", url.path])
            #expect(info.status == 3, "\(info.output)")
            #expect(info.output.contains("newest meta page of its data file is damaged"))
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            #expect(try !TrendStore(directory: url, options: readOnly).metaPagesAgree())
            // Writing would make the earlier commit permanent: refused, the file left as it is.
            let before = try Data(contentsOf: url.appendingPathComponent("data.mdb"))
            #expect(throws: StoreError.self) { _ = try TrendStore(directory: url) }
            #expect(try Data(contentsOf: url.appendingPathComponent("data.mdb")) == before)
        }
    }

    @Test("meta pages agree in a new store, after commits, and in a compacted backup")
    func healthyMetaPages() async throws {
        try await withTemporaryDirectory { directory in
            let url = try await Self.makeStore(in: directory)
            let store = try TrendStore(directory: url)
            #expect(try store.metaPagesAgree())
            let copy = directory.url.appendingPathComponent("copy")
            try await store.backup(to: copy)
            await store.close()
            let backup = try TrendStore(directory: copy)
            #expect(try backup.engine.environment.metaPageTransactionIDs().sorted() == [0, 1])
            #expect(try await backup.verify().isHealthy)
        }
    }
}
