import Foundation
import LMDB
import Testing

private struct Rollback: Error {}

@Suite("A write transaction's mark")
struct CommitMarkTests {
    /// Runs `body` with a fresh environment and one database in it.
    private func withDatabase(_ body: (Environment, Database) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lmdb-mark-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let env = try Environment(path: path)
        try body(env, try env.openDatabase(named: "things"))
    }

    /// Whether `mark` directly precedes the next write transaction of `env`.
    private func precedesNext(_ mark: CommitMark?, in env: Environment) throws -> Bool {
        try env.write { txn in mark?.directlyPrecedes(txn) ?? false }
    }

    @Test("marks its own transaction and precedes the next one after committing a change")
    func committedChangePrecedesNext() throws {
        try withDatabase { env, db in
            let (mark, marksItself, precedesItself) = try env.write { txn in
                try txn.put([1], forKey: [1], in: db)
                return (txn.mark, txn.mark.marks(txn), txn.mark.directlyPrecedes(txn))
            }
            #expect(marksItself && !precedesItself)
            let marksNext = try env.write { txn in mark.marks(txn) }
            #expect(!marksNext)
            let again = try env.write { txn in
                try txn.put([2], forKey: [1], in: db)
                return txn.mark
            }
            #expect(try precedesNext(again, in: env))
        }
    }

    @Test("precedes nothing after another commit, an abort or a transaction that changed nothing")
    func precedesNothingElse() throws {
        try withDatabase { env, db in
            let first = try env.write { txn in
                try txn.put([1], forKey: [1], in: db)
                return txn.mark
            }
            // Another writer (here the same environment; another process numbers alike).
            try env.write { txn in try txn.put([2], forKey: [2], in: db) }
            #expect(try !precedesNext(first, in: env))

            var aborted: CommitMark?
            #expect(throws: Rollback.self) {
                try env.write { txn in
                    try txn.put([3], forKey: [3], in: db)
                    aborted = txn.mark
                    throw Rollback()
                }
            }
            #expect(aborted != nil)
            #expect(try !precedesNext(aborted, in: env))

            let unchanged = try env.write { txn in txn.mark }
            #expect(try !precedesNext(unchanged, in: env))
        }
    }
}
