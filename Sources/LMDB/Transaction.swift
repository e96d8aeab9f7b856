import CLMDB

/// What every transaction can do: look up values and walk databases in key order.
///
/// Write generic code against this protocol to use it from both kinds of
/// transaction:
///
/// ```swift
/// func count<T: ReadableTransaction & ~Copyable>(_ txn: borrowing T, _ db: Database) throws -> Int {
///     try txn.withCursor(db) { cursor in var n = 0; try cursor.forEach { _, _ in n += 1; return true }; return n }
/// }
/// ```
public protocol ReadableTransaction: ~Copyable {
    /// Calls `body` with the bytes stored under `key`, or returns `nil` when there are none.
    ///
    /// The bytes are valid only inside `body`.
    ///
    /// The corresponding LMDB function is `mdb_get`.
    func withValue<R>(
        forKey key: UnsafeRawBufferPointer, in database: Database,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R?

    /// Calls `body` with a cursor over `database`, closed when `body` returns.
    ///
    /// The corresponding LMDB function is `mdb_cursor_open`.
    func withCursor<R>(_ database: Database, _ body: (inout Cursor) throws -> R) throws -> R

    /// The pages and entries of `database` as this transaction sees them.
    ///
    /// The corresponding LMDB function is `mdb_stat`.
    func statistics(of database: Database) throws -> DatabaseStatistics

    /// The id of the committed state this transaction reads, which no commit changes (two
    /// read transactions of one environment with the same id see the same data), or `nil`
    /// for a write transaction, whose state changes with its own writes.
    var committedSnapshotID: Int? { get }
}

/// How much of the data file a database takes (``ReadableTransaction/statistics(of:)``).
public struct DatabaseStatistics: Sendable, Equatable {
    /// The size of a page in bytes.
    public var pageSize: Int
    /// Pages of the B-tree's inner nodes, its leaves, and values too large for a leaf.
    public var branchPages, leafPages, overflowPages: Int
    /// The number of keys.
    public var entries: Int

    /// The bytes of all its pages.
    public var bytes: Int { (branchPages + leafPages + overflowPages) * pageSize }
}

extension ReadableTransaction where Self: ~Copyable {
    /// Returns a copy of the bytes stored under `key`, or `nil` when there are none.
    public func value(forKey key: [UInt8], in database: Database) throws -> [UInt8]? {
        try key.withUnsafeBytes { key in
            try withValue(forKey: key, in: database) { Array($0) }
        }
    }
}

/// Operations shared by both transaction kinds, on LMDB's raw handle.
enum TransactionOperations {
    /// The value under `key`, checked against its pages (``ValueBounds``) of `pageSize` in a
    /// read transaction, its leaf page checked whole (``LeafPages``), or where it would lie
    /// when it is not found; a write transaction passes `nil`: its changed pages lie outside
    /// the map.
    static func withValue<R>(
        _ txn: OpaquePointer, key: UnsafeRawBufferPointer, database: Database,
        pageSize: Int?, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        var keyVal = MDB_val(
            mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val()
        let rc = mdb_get(txn, database.handle, &keyVal, &dataVal)
        if rc == MDB_NOTFOUND {
            // The key may be hidden by a damaged page: the cursor's seek checks where it would lie.
            if pageSize != nil {
                _ = try withCursor(txn, database: database, pageSize: pageSize) {
                    try $0.seek(atOrAfter: key)
                }
            }
            return nil
        }
        try check(rc, "get from database \(database)")
        let bytes = try ValueBounds.checked(
            dataVal, pageSize: pageSize, "get from database \(database)")
        // An empty value's address may be its page's end, which is the next page's start.
        if let pageSize, let data = dataVal.mv_data, dataVal.mv_size > 0,
            !ValueBounds.isOnOverflowPages(data, pageSize)
        {
            try LeafPages.checkPage(of: data, pageSize: pageSize, "get from database \(database)")
        }
        return try body(bytes)
    }

    /// A cursor over `database`, whose values are checked like ``withValue(_:key:database:pageSize:_:)``'s.
    static func withCursor<R>(
        _ txn: OpaquePointer, database: Database, pageSize: Int?,
        _ body: (inout Cursor) throws -> R
    ) throws -> R {
        var cursor: OpaquePointer?
        try check(
            mdb_cursor_open(txn, database.handle, &cursor), "open cursor on database \(database)")
        var wrapped = Cursor(
            pointer: cursor!, database: database, pageSize: pageSize)
        defer { mdb_cursor_close(cursor) }
        return try body(&wrapped)
    }

    static func statistics(_ txn: OpaquePointer, database: Database) throws -> DatabaseStatistics {
        var stat = MDB_stat()
        try check(mdb_stat(txn, database.handle, &stat), "read statistics of database \(database)")
        return DatabaseStatistics(
            pageSize: Int(stat.ms_psize), branchPages: stat.ms_branch_pages,
            leafPages: stat.ms_leaf_pages, overflowPages: stat.ms_overflow_pages,
            entries: stat.ms_entries)
    }

    static func openDatabase(_ txn: OpaquePointer, named name: String, create: Bool) throws
        -> Database
    {
        var dbi: MDB_dbi = 0
        let flags = create ? UInt32(MDB_CREATE) : 0
        try check(mdb_dbi_open(txn, name, flags, &dbi), "open database '\(name)'")
        return Database(handle: dbi, name: name)
    }
}

/// A read-only transaction: one consistent snapshot of the environment.
///
/// You get one inside ``Environment/read(_:)``; it cannot outlive that closure.
public struct ReadTransaction: ~Copyable, ReadableTransaction {
    let pointer: OpaquePointer
    /// The page size values are checked against (``ValueBounds``), or `nil`.
    let checkedPageSize: Int?

    init(pointer: OpaquePointer, checkedPageSize: Int?) {
        self.pointer = pointer
        self.checkedPageSize = checkedPageSize
    }

    /// Calls `body` with the bytes stored under `key`, or returns `nil` when there are none.
    public func withValue<R>(
        forKey key: UnsafeRawBufferPointer, in database: Database,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try TransactionOperations.withValue(
            pointer, key: key, database: database, pageSize: checkedPageSize, body)
    }

    /// Calls `body` with a cursor over `database`.
    public func withCursor<R>(_ database: Database, _ body: (inout Cursor) throws -> R) throws -> R
    {
        try TransactionOperations.withCursor(
            pointer, database: database, pageSize: checkedPageSize, body)
    }

    /// The pages and entries of `database` as this transaction sees them.
    public func statistics(of database: Database) throws -> DatabaseStatistics {
        try TransactionOperations.statistics(pointer, database: database)
    }

    /// The id of the commit this transaction's snapshot shows: two read transactions with
    /// the same id see the same data, and a commit of any process after it gives a later
    /// transaction a greater id.
    ///
    /// Compare this, not the last id LMDB's environment information gives (`mdb_env_info`),
    /// to tell whether what you read may have changed: a durable commit writes its meta page
    /// (which that reads) before it publishes the snapshot new readers take, so for a moment
    /// the environment's last id is ahead of what a read transaction sees.
    ///
    /// The corresponding LMDB function is `mdb_txn_id`.
    public var snapshotID: Int { Int(mdb_txn_id(pointer)) }

    /// The id of the commit this snapshot shows (``snapshotID``).
    public var committedSnapshotID: Int? { snapshotID }
}

extension ReadTransaction {
    /// Lends this transaction to `body` as a value `body` may move into a wrapper of its
    /// own (a snapshot type) for as long as it runs.
    ///
    /// The lent value reads like this transaction and ends with it; it never aborts the
    /// transaction itself, and being neither copyable nor returned, it cannot outlive `body`.
    public func lend<R>(_ body: (consuming LentReadTransaction) throws -> R) rethrows -> R {
        try body(LentReadTransaction(pointer: pointer, checkedPageSize: checkedPageSize))
    }
}

/// A read transaction lent by its owner for the length of a call (``ReadTransaction/lend(_:)``).
public struct LentReadTransaction: ~Copyable, ReadableTransaction {
    let pointer: OpaquePointer
    /// The page size values are checked against (``ValueBounds``), or `nil`.
    let checkedPageSize: Int?

    /// Calls `body` with the bytes stored under `key`, or returns `nil` when there are none.
    public func withValue<R>(
        forKey key: UnsafeRawBufferPointer, in database: Database,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try TransactionOperations.withValue(
            pointer, key: key, database: database, pageSize: checkedPageSize, body)
    }

    /// Calls `body` with a cursor over `database`.
    public func withCursor<R>(_ database: Database, _ body: (inout Cursor) throws -> R) throws -> R
    {
        try TransactionOperations.withCursor(
            pointer, database: database, pageSize: checkedPageSize, body)
    }

    /// The pages and entries of `database` as this transaction sees them.
    public func statistics(of database: Database) throws -> DatabaseStatistics {
        try TransactionOperations.statistics(pointer, database: database)
    }

    /// The id of the commit the lender's snapshot shows (``ReadTransaction/snapshotID``).
    public var committedSnapshotID: Int? { Int(mdb_txn_id(pointer)) }
}

/// A read-write transaction. It commits when the closure that received it returns.
///
/// You get one inside ``Environment/write(_:)``; it cannot outlive that closure, and
/// it sees its own writes.
public struct WriteTransaction: ~Copyable, ReadableTransaction {
    /// Flags that outlive a transaction attempt, so the environment can tell a full map.
    ///
    /// @unchecked: used by one thread, within one write call.
    final class State: @unchecked Sendable {
        var mapFull = false
        /// Whether a put, deletion or emptying was asked for: a transaction that changed
        /// nothing commits without writing, and is not stamped (``Environment/stampCommits(in:key:)``).
        var changes = false
        /// Whether `mdb_txn_commit` returned success (``CommitMark``).
        var committed = false
    }

    let pointer: OpaquePointer
    let state: State

    init(pointer: OpaquePointer, state: State) {
        self.pointer = pointer
        self.state = state
    }

    /// Calls `body` with the bytes stored under `key`, or returns `nil` when there are none.
    public func withValue<R>(
        forKey key: UnsafeRawBufferPointer, in database: Database,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try TransactionOperations.withValue(
            pointer, key: key, database: database, pageSize: nil, body)
    }

    /// Calls `body` with a cursor over `database`.
    public func withCursor<R>(_ database: Database, _ body: (inout Cursor) throws -> R) throws -> R
    {
        try TransactionOperations.withCursor(pointer, database: database, pageSize: nil, body)
    }

    /// The pages and entries of `database` as this transaction sees them.
    public func statistics(of database: Database) throws -> DatabaseStatistics {
        try TransactionOperations.statistics(pointer, database: database)
    }

    /// `nil`: what a write transaction reads changes with its own writes.
    public var committedSnapshotID: Int? { nil }

    /// Opens the database `name`, creating it when `create` and it is missing; a creation
    /// is a change, so the commit is stamped (``Environment/stampCommits(in:key:)``).
    func openDatabase(named name: String, create: Bool) throws -> Database {
        guard create else {
            return try TransactionOperations.openDatabase(pointer, named: name, create: false)
        }
        do {
            return try TransactionOperations.openDatabase(pointer, named: name, create: false)
        } catch let error as LMDBError where error.code == .notFound {
            state.changes = true
            return try TransactionOperations.openDatabase(pointer, named: name, create: true)
        }
    }

    /// Stores `value` under `key`, replacing what was there.
    ///
    /// - Parameter append: Pass `true` when `key` sorts after every key in the
    ///   database; LMDB then fills pages completely. It fails with
    ///   ``LMDBError/Code/keyExists`` when the key does not sort last.
    ///
    /// The corresponding LMDB function is `mdb_put`.
    public func put(
        _ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer, in database: Database,
        append: Bool = false
    ) throws {
        var keyVal = MDB_val(
            mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(
            mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        state.changes = true
        let rc = mdb_put(
            pointer, database.handle, &keyVal, &dataVal, append ? UInt32(MDB_APPEND) : 0)
        if rc == MDB_MAP_FULL { state.mapFull = true }
        try check(rc, "put \(value.count) bytes in database \(database)")
    }

    /// Stores `value` under `key`, replacing what was there.
    public func put(_ value: [UInt8], forKey key: [UInt8], in database: Database) throws {
        try value.withUnsafeBytes { (value) in
            try key.withUnsafeBytes { (key) in try put(value, forKey: key, in: database) }
        }
    }

    /// Removes the value stored under `key`.
    ///
    /// - Returns: `false` when there was none.
    ///
    /// The corresponding LMDB function is `mdb_del`.
    @discardableResult
    public func delete(forKey key: UnsafeRawBufferPointer, in database: Database) throws -> Bool {
        var keyVal = MDB_val(
            mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let rc = mdb_del(pointer, database.handle, &keyVal, nil)
        if rc == MDB_NOTFOUND { return false }
        state.changes = true
        try check(rc, "delete from database \(database)")
        return true
    }

    /// Removes the value stored under `key`.
    @discardableResult
    public func delete(forKey key: [UInt8], in database: Database) throws -> Bool {
        try key.withUnsafeBytes { (key) in try delete(forKey: key, in: database) }
    }

    /// Removes every key of `database`, keeping the database itself.
    ///
    /// - Warning: Destroys all the database's data when the transaction commits.
    ///
    /// The corresponding LMDB function is `mdb_drop`.
    public func removeAll(in database: Database) throws {
        state.changes = true
        try check(mdb_drop(pointer, database.handle, 0), "empty database \(database)")
    }
}
