import LMDB

/// One LMDB database as ordered byte keys and values: with the typed tables beside it, the
/// only code of `TrendStore` that calls LMDB's transaction and cursor API, so every stored
/// value passes here (`Tools/check-layers.py` fails on an LMDB call outside this folder, and
/// on this type named outside it).
///
/// Reads hand out borrowed views of the transaction's pages: zero-copy, valid only inside
/// the closure.
struct RawTable: Sendable {
    /// The database.
    let database: Database

    /// Opens (creating it in a writable environment) the database `name`.
    init(named name: String, in environment: Environment) throws {
        database = try environment.openDatabase(named: name)
    }

    /// Calls `body` with the value under `key`; `nil` when there is none.
    @inline(__always)
    func withValue<T: ReadableTransaction & ~Copyable, R>(
        forKey key: [UInt8], in txn: borrowing T, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try key.withUnsafeBytes { key in try txn.withValue(forKey: key, in: database, body) }
    }

    /// A copy of the value under `key`, or `nil`.
    func value<T: ReadableTransaction & ~Copyable>(forKey key: [UInt8], in txn: borrowing T)
        throws -> [UInt8]?
    {
        try txn.value(forKey: key, in: database)
    }

    /// Stores `value` under `key`, replacing what was there.
    func put(_ value: [UInt8], forKey key: [UInt8], in txn: borrowing WriteTransaction) throws {
        try txn.put(value, forKey: key, in: database)
    }

    /// Removes the value under `key`; whether there was one.
    @discardableResult
    func delete(forKey key: [UInt8], in txn: borrowing WriteTransaction) throws -> Bool {
        try txn.delete(forKey: key, in: database)
    }

    /// Calls `body(key, value)` for each entry from the first key at or after `start` (the
    /// first entry when empty), in key order, until `body` returns `false`.
    func forEach<T: ReadableTransaction & ~Copyable>(
        from start: [UInt8] = [], in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try txn.withCursor(database) { cursor in try cursor.forEach(from: start, body) }
    }

    /// The keys starting with `prefix`, in order.
    func keys<T: ReadableTransaction & ~Copyable>(prefix: [UInt8], in txn: borrowing T) throws
        -> [[UInt8]]
    {
        var keys: [[UInt8]] = []
        try forEach(from: prefix, in: txn) { key, _ in
            guard key.starts(with: prefix) else { return false }
            keys.append(Array(key))
            return true
        }
        return keys
    }

    /// Runs `body` with a cursor over the database, for walks that move both ways.
    func withCursor<T: ReadableTransaction & ~Copyable, R>(
        in txn: borrowing T, _ body: (inout Cursor) throws -> R
    ) throws -> R {
        try txn.withCursor(database, body)
    }

    /// How many entries LMDB records for the database.
    func entryCount<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> Int {
        try txn.statistics(of: database).entries
    }

    /// The bytes of the pages holding the database.
    func byteCount<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> Int {
        try txn.statistics(of: database).bytes
    }

    /// Calls `body` with the series `owner` reads from each key (`nil` for a key of no
    /// known shape), and returns how many entries the walk reached against how many LMDB
    /// records: they differ when a damaged page (LMDB does not checksum its pages) hides or
    /// repeats some.
    func forEachOwner<T: ReadableTransaction & ~Copyable>(
        named name: String, in txn: borrowing T, owner: (UnsafeRawBufferPointer) -> UInt32?,
        _ body: (UInt32?) -> Void
    ) throws -> TableReach {
        var reached = 0
        try forEach(in: txn) { key, _ in
            reached += 1
            body(owner(key))
            return true
        }
        return TableReach(name: name, recorded: try entryCount(in: txn), reached: reached)
    }

    /// How many entries a walk reaches against how many LMDB records.
    func reach<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> TableReach
    {
        try forEachOwner(named: name, in: txn, owner: { _ in nil }) { _ in }
    }

    /// Puts (or, for `nil`, deletes) each value in key order, appending the keys that sort
    /// after every stored key (`MDB_APPEND`), so values written as time goes on fill pages
    /// whole.
    func putInKeyOrder(_ values: [[UInt8]: [UInt8]?], in txn: borrowing WriteTransaction) throws {
        var last = try txn.withCursor(database) { try $0.last().map { Array($0.key) } }
        for (key, value) in values.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            guard let value else {
                try txn.delete(forKey: key, in: database)
                continue
            }
            let appending = last.map { $0.lexicographicallyPrecedes(key) } ?? true
            try value.withUnsafeBytes { value in
                try key.withUnsafeBytes { key in
                    try txn.put(value, forKey: key, in: database, append: appending)
                }
            }
            if appending { last = key }
        }
    }
}

/// How many entries of a table a walk reaches against how many LMDB records: they differ
/// when a damaged page (LMDB does not checksum its pages) hides or repeats some.
struct TableReach: Equatable, Sendable {
    /// The table's database name.
    let name: String
    /// The entries LMDB records.
    let recorded: Int
    /// The entries a walk reached.
    let reached: Int

    /// Whether the walk reached every recorded entry.
    var isComplete: Bool { recorded == reached }
}
