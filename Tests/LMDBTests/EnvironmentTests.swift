import Foundation
import LMDB
import Testing

/// Runs `body` with a fresh directory, removed afterwards.
private func withDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lmdb-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// A fresh directory for one environment, removed afterwards.
private func withEnvironment<R>(
    _ options: Environment.Options = .init(), _ body: (Environment, String) throws -> R
) throws -> R {
    try withDirectory { path in try body(try Environment(path: path, options: options), path) }
}

private struct Rollback: Error {}

@Suite("LMDB environment and transactions")
struct EnvironmentTests {
    @Test("a committed write is read back, and survives reopening")
    func writeThenRead() throws {
        try withDirectory { path in try writeThenRead(at: path) }
    }

    private func writeThenRead(at path: String) throws {
        do {
            let env = try Environment(path: path)
            let db = try env.openDatabase(named: "things")
            try env.write { txn in try txn.put([9, 8, 7], forKey: [1], in: db) }
            #expect(try env.read { try $0.value(forKey: [1], in: db) } == [9, 8, 7])
        }
        let reopened = try Environment(path: path)
        let db = try reopened.openDatabase(named: "things")
        #expect(try reopened.read { try $0.value(forKey: [1], in: db) } == [9, 8, 7])
    }

    @Test("a write whose closure throws leaves nothing behind")
    func throwingWriteAborts() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            #expect(throws: Rollback.self) {
                try env.write { txn in
                    try txn.put([1], forKey: [1], in: db)
                    throw Rollback()
                }
            }
            #expect(try env.read { try $0.value(forKey: [1], in: db) } == nil)
        }
    }

    @Test("empty values at a leaf page's end read back in read transactions, every key size")
    func emptyValuesAtPageEnd() throws {
        try withEnvironment { env, _ in
            // A database's first node lies at its page's end: with an even key size its empty
            // value's address is the next page's start, which the leaf check must not read.
            for keySize in 1...12 {
                let db = try env.openDatabase(named: "empty-\(keySize)")
                let key = [UInt8](repeating: UInt8(keySize), count: keySize)
                try env.write { txn in try txn.put([], forKey: key, in: db) }
                #expect(try env.read { try $0.value(forKey: key, in: db) } == [])
                let walked = try env.read { txn in
                    try txn.withCursor(db) { cursor in try cursor.first().map { $0.value.count } }
                }
                #expect(walked == 0)
            }
        }
    }

    @Test("a missing key reads as nil, not an error")
    func missingKeyIsNil() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            #expect(try env.read { try $0.value(forKey: [42], in: db) } == nil)
            #expect(try env.write { try $0.delete(forKey: [42], in: db) } == false)
        }
    }

    @Test("a cursor walks keys in byte order from a seek position")
    func cursorOrder() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            try env.write { txn in
                for key: UInt8 in [5, 1, 9, 3, 7] {
                    try txn.put([key * 2], forKey: [0, key], in: db)
                }
            }
            let keys: [UInt8] = try env.read { txn in
                try txn.withCursor(db) { cursor in
                    var keys: [UInt8] = []
                    try cursor.forEach(from: [0, 4]) { key, _ in
                        keys.append(key[1]); return key[1] < 7
                    }
                    return keys
                }
            }
            #expect(keys == [5, 7])
            let last: UInt8? = try env.read { txn in
                try txn.withCursor(db) { try $0.last()?.key[1] }
            }
            #expect(last == 9)
        }
    }

    @Test("the map grows by itself when a write fills it")
    func mapGrowth() throws {
        var options = Environment.Options()
        options.mapSize = 64 << 10
        try withEnvironment(options) { env, _ in
            let db = try env.openDatabase(named: "things")
            let value = [UInt8](repeating: 0xAB, count: 4000)
            try env.write { txn in
                for index in 0..<1000 as Range<UInt32> {
                    try txn.put(
                        value, forKey: withUnsafeBytes(of: index.bigEndian, Array.init), in: db)
                }
            }
            #expect(env.mapSize >= 1000 * 4096)  // grew from 64 KiB to hold the data
            let count = try env.read { txn in
                try txn.withCursor(db) { cursor in
                    var count = 0
                    try cursor.forEach { _, value in
                        count += value.count == 4000 ? 1 : 0; return true
                    }
                    return count
                }
            }
            #expect(count == 1000)
        }
    }

    @Test("files are created with mode 0600")
    func fileMode() throws {
        try withEnvironment { _, path in
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test("errors name the operation and carry LMDB's code and message")
    func errorsCarryContext() throws {
        try withDirectory { path in
            try Data(
                "this is not an LMDB file, just text that is long enough to have a header".utf8
                    + Data(count: 8192)
            )
            .write(to: URL(fileURLWithPath: path + "/data.mdb"))
            do {
                _ = try Environment(path: path)
                Issue.record("opening a non-LMDB file succeeded")
            } catch let error as LMDBError {
                #expect(error.code == .invalid)
                #expect(error.description.contains("open environment"))
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test("a read-only environment refuses writes")
    func readOnly() throws {
        try withEnvironment { env, path in
            _ = try env.openDatabase(named: "things")
            var options = Environment.Options()
            options.readOnly = true
            let reader = try Environment(path: path, options: options)
            #expect(throws: LMDBError.self) { try reader.write { _ in } }
            #expect(throws: LMDBError.self) { try reader.openDatabase(named: "missing") }
        }
    }
}

@Suite("Refusing damaged files")
struct DamagedFileTests {
    @Test("a truncated data file fails to open with a clear error and is left as it was")
    func truncated() throws {
        try withDirectory { path in try truncated(at: path) }
    }

    private func truncated(at path: String) throws {
        do {
            let env = try Environment(path: path)
            let db = try env.openDatabase(named: "things")
            try env.write { txn in
                for index in 0..<2_000 as Range<UInt32> {
                    try txn.put(
                        [UInt8](repeating: 7, count: 3000),
                        forKey: withUnsafeBytes(of: index.bigEndian, Array.init), in: db)
                }
            }
        }
        let file = URL(fileURLWithPath: path + "/data.mdb")
        let whole = try Data(contentsOf: file)
        let cut = whole.prefix(whole.count / 2)
        try cut.write(to: file)
        #expect {
            _ = try Environment(path: path)
        } throws: { error in
            (error as? LMDBError)?.code == .corrupted && "\(error)".contains("truncated")
        }
        #expect(try Data(contentsOf: file) == cut)
    }

    @Test("a file that is not an LMDB file fails to open and is never overwritten")
    func notLMDB() throws {
        try withDirectory { path in try notLMDB(at: path) }
    }

    private func notLMDB(at path: String) throws {
        var random = SystemRandomNumberGenerator()
        let garbage = Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        try garbage.write(to: URL(fileURLWithPath: path + "/data.mdb"))
        #expect(throws: LMDBError.self) { _ = try Environment(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")) == garbage)
    }
}
