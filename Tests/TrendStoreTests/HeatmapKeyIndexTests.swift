import Foundation
import LMDB
import Testing
import TestSupport
import TrendStoreTesting

@testable import TrendStore

private struct Rollback: Error {}

@Suite("The heatmap buckets' keys kept in memory")
struct HeatmapKeyIndexTests {
    @Test("trusted in the next transaction after a commit; a bucket noted in an aborted one is not")
    func abortedNoteIsForgotten() async throws {
        try await withTemporaryDirectory { directory in
            let store = try TrendStore(directory: directory.url)
            let utc = TimeZone(identifier: "UTC")!
            let single = SchemaKey.heatmap(["a"], zone: utc)
            let pair = SchemaKey.heatmap(["a", "b"], zone: utc)
            let index = HeatmapKeyIndex()
            var reads = 0
            func stored() -> [String] {
                reads += 1
                return [single]
            }
            let payloads = store.engine.tables.payloads.database
            let first = try store.engine.write { txn, _ in
                try txn.put([1], forKey: Array("x".utf8), in: payloads)
                return try index.keys(holding: "a", in: txn, read: stored)
            }
            #expect(first == [single] && reads == 1)
            var inAborted: [[String]] = []
            #expect(throws: (any Error).self) {
                try store.engine.write { txn, _ in
                    inAborted.append(try index.keys(holding: "a", in: txn, read: stored))
                    index.note(pair, present: true, in: txn)
                    inAborted.append(try index.keys(holding: "b", in: txn, read: stored))
                    inAborted.append(try index.keys(holding: "a", in: txn, read: stored))
                    try txn.put([2], forKey: Array("x".utf8), in: payloads)
                    throw Rollback()
                }
            }
            #expect(inAborted == [[single], [pair], [single, pair].sorted()])
            #expect(reads == 1)
            let afterAbort = try store.engine.write { txn, _ in
                let found = [
                    try index.keys(holding: "a", in: txn, read: stored),
                    try index.keys(holding: "b", in: txn, read: stored),
                ]
                index.note(single, present: false, in: txn)
                try txn.put([3], forKey: Array("x".utf8), in: payloads)
                return found + [try index.keys(holding: "a", in: txn, read: stored)]
            }
            #expect(afterAbort == [[single], [], []] && reads == 2)
            let next = try store.engine.write { txn, _ in
                try txn.put([4], forKey: Array("x".utf8), in: payloads)
                return try index.keys(holding: "a", in: txn, read: stored)
            }
            #expect(next == [] && reads == 2)
        }
    }
}
