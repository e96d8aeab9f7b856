import Foundation
import Testing
import TestSupport

@testable import TrendStore

/// A data file cut to nothing, or one that lost its settings, is damage: no open, write or
/// command replaces it with a new store, and `verify` says so with exit status 3.
@Suite("Data files without a store in them")
struct LostSettingsTests {
    /// A store with one sample in `directory`/store; returns its URL.
    static func makeStore(in directory: TemporaryDirectory) async throws -> URL {
        let url = directory.url.appendingPathComponent("store")
        let store = try TrendStore(directory: url)
        try await store.write(
            [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "e",
            unit: "kcal")
        await store.close()
        return url
    }

    /// Runs import, verify and a library open on `store` and expects each to refuse it as
    /// damage, leaving `data.mdb` byte for byte as it was.
    static func expectRefused(_ store: URL, in directory: TemporaryDirectory) throws {
        let data = store.appendingPathComponent("data.mdb")
        let before = try Data(contentsOf: data)
        let csv = try directory.file(
            "one.csv", containing: "series,start,end,value\ne,120000,180000,2\n")
        let imported = try CommandLineTool.run(["import", csv, "--store", store.path])
        #expect(imported.status != 0, "\(imported.output)")
        #expect(imported.output.contains("damaged") || imported.output.contains("lost"))
        let verified = try CommandLineTool.run(["verify", "--store", store.path])
        #expect(verified.status == 3, "\(verified.output)")
        #expect(throws: StoreError.self) { try TrendStore(directory: store) }
        #expect(try Data(contentsOf: data) == before)
    }

    @Test("a data file cut to 0 bytes stays as it is")
    func emptyDataFile() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.makeStore(in: directory)
            #expect(truncate(store.appendingPathComponent("data.mdb").path, 0) == 0)
            try Self.expectRefused(store, in: directory)
        }
    }

    @Test("a data file whose settings are gone stays as it is")
    func settingsGone() async throws {
        try await withTemporaryDirectory { directory in
            let url = try await Self.makeStore(in: directory)
            let store = try TrendStore(directory: url)
            try store.engine.write { txn, _ in
                try txn.removeAll(in: store.engine.tables.meta.database)
            }
            await store.close()
            try Self.expectRefused(url, in: directory)
        }
    }

    @Test("a new store leaves no private directory behind, and clears those of dead creators")
    func stagingCleared() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            // No process has the largest pid: a creator killed long ago.
            let abandoned = url.appendingPathComponent(".creating-2147483646-abandoned")
            try FileManager.default.createDirectory(
                at: abandoned, withIntermediateDirectories: true)
            let store = try TrendStore(directory: url)
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "e",
                unit: "kcal")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() == [
                    "data.mdb", "lock.mdb",
                ])
            #expect(try await store.verify().isHealthy)
        }
    }
}
