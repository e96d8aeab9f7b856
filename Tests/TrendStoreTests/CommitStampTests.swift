import Foundation
import LMDB
import Testing
import TestSupport

@testable import TrendStore

/// Every commit of a store of format 3 stamps its own id in `meta`, so a damaged meta page
/// that makes LMDB open an earlier commit (its id raised past the newest: one bit for about
/// half of all ids) is refused at open instead of answering stale and losing the later
/// commits at the next write.
@Suite("Commit stamps")
struct CommitStampTests {
    /// The stamp and the snapshot id a read transaction of `store` sees.
    static func stampAndSnapshot(_ store: TrendStore) throws -> (UInt64?, Int) {
        let engine = store.engine
        return try engine.read { txn in
            (try engine.tables.meta.commitStamp(in: txn), Transactions.snapshotID(of: txn))
        }
    }

    /// Raises the transaction id of the older meta page of the data file in `directory` to
    /// the newest + 1, as one flipped bit can.
    static func raiseOlderMetaPage(in directory: URL) throws {
        let path = directory.appendingPathComponent("data.mdb").path
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let head = try #require(try handle.read(upToCount: 44))
        let pageSize = head[40..<44].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        func id(_ page: UInt64) throws -> UInt64 {
            try handle.seek(toOffset: page * UInt64(pageSize) + 144)
            return try #require(try handle.read(upToCount: 8)).withUnsafeBytes {
                $0.loadUnaligned(as: UInt64.self)
            }
        }
        let ids = [try id(0), try id(1)]
        let older: UInt64 = ids[0] < ids[1] ? 0 : 1
        try handle.seek(toOffset: older * UInt64(pageSize) + 144)
        handle.write(withUnsafeBytes(of: (ids.max()! + 1).littleEndian) { Data($0) })
    }

    @Test("every way of writing stamps the commit it makes", arguments: [false, true])
    func everyCommitStamped(encrypted: Bool) async throws {
        var options = StoreOptions()
        if encrypted { options.encryptionKey = .random() }
        try await withTemporaryStore(options: options) { store, directory in
            #expect(try store.formatVersion == Int(StorageFormat.current))
            func expectStamped(_ what: String) throws {
                let (stamp, snapshot) = try Self.stampAndSnapshot(store)
                #expect(stamp == UInt64(snapshot), "\(what)")
            }
            try expectStamped("a new store")
            let samples = (0..<100).map {
                Sample(
                    startMilliseconds: 1_780_000_000_000 + Int64($0) * 60_000,
                    endMilliseconds: 1_780_000_060_000 + Int64($0) * 60_000, value: 1)
            }
            try await store.write(samples, to: "e", unit: "kcal")
            try expectStamped("a write")
            _ = try await store.refreshedWeekdayAverages(
                of: "e", now: Date(milliseconds: 1_780_100_000_000))
            try expectStamped("a cache refresh")
            try await TypedCache<String, Int>(store: store, namespace: "n").insert(1, forKey: "k")
            try expectStamped("a typed-cache insert")
            try await store.deleteSamples(of: "e", before: Date(milliseconds: 1_780_000_600_000))
            try expectStamped("a deletion")
            // A transaction that only creates a database (as a writable open of an older
            // format creates the tables it lacks) changes the store too.
            _ = try store.engine.environment.openDatabase(named: "created-alone")
            try expectStamped("a database created alone")
            _ = try store.engine.environment.openDatabase(named: "created-alone")
            try expectStamped("a database opened again")
            await store.close()
            let reopened = try TrendStore(directory: directory, options: options)
            try await reopened.write(samples, to: "f", unit: "kcal")
            let (stamp, snapshot) = try Self.stampAndSnapshot(reopened)
            #expect(stamp == UInt64(snapshot), "after reopening")
        }
    }

    @Test(
        "a store whose older meta page was raised past the newest is refused, read-only and writable, and left as it is",
        arguments: [false, true])
    func raisedMetaPageRefused(encrypted: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("store")
        var options = StoreOptions()
        if encrypted { options.encryptionKey = .random() }
        do {
            let store = try TrendStore(directory: url, options: options)
            for minute in 0..<5 {
                let start = 1_780_000_000_000 + Int64(minute) * 60_000
                try await store.write(
                    [Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: 1)],
                    to: "e", unit: "kcal")
            }
            await store.close()
        }
        try Self.raiseOlderMetaPage(in: url)
        let before = try Data(contentsOf: url.appendingPathComponent("data.mdb"))
        var readOnly = options
        readOnly.readOnly = true
        for opening in [options, readOnly] {
            #expect {
                try TrendStore(directory: url, options: opening)
            } throws: { error in
                guard let error = error as? StoreError, error.code == .storage else { return false }
                return error.systemCode == LMDBError.Code.corrupted.rawValue
                    && error.reason?.contains("damaged meta page") == true
            }
        }
        if !encrypted {
            let verify = try CommandLineTool.run(["verify", "--store", url.path])
            #expect(verify.status == 3, "\(verify.output)")
            let info = try CommandLineTool.run(["info", "--store", url.path])
            #expect(info.status == 3, "\(info.output)")
            let csv = try directory.file(
                "one.csv", containing: "series,start,end,value\ne,0,60000,1\n")
            #expect(try CommandLineTool.run(["import", csv, "--store", url.path]).status != 0)
        }
        #expect(try Data(contentsOf: url.appendingPathComponent("data.mdb")) == before)
    }

    @Test("a compacted backup, numbered anew by LMDB, opens, and its first write stamps it")
    func backupOpens() async throws {
        try await withTemporaryStore { store, directory in
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "e",
                unit: "kcal")
            let copy = directory.deletingLastPathComponent().appendingPathComponent(
                "backup-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: copy) }
            try await store.backup(to: copy)
            let restored = try TrendStore(directory: copy)
            #expect(try await restored.verify().isHealthy)
            try await restored.write(
                [Sample(startMilliseconds: 60_000, endMilliseconds: 120_000, value: 2)], to: "e",
                unit: "kcal")
            let (stamp, snapshot) = try Self.stampAndSnapshot(restored)
            #expect(stamp == UInt64(snapshot))
            await restored.close()
            #expect(try TrendStore(directory: copy).series().map(\.sampleCount) == [2])
        }
    }
}
