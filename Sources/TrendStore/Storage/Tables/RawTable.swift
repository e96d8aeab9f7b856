import LMDB

/// One LMDB database as ordered byte keys and values: with the typed tables beside it, the
/// only code of `TrendStore` that calls LMDB's transaction and cursor API, so every stored
/// value passes here (`Tools/check-layers.py` fails on an LMDB call outside this folder, and
/// on this type named outside it).
///
/// In a plain store reads hand out borrowed views of the transaction's pages: zero-copy,
/// valid only inside the closure. In an encrypted store every value is sealed on its way in
/// and opened on its way out (``ValueSealer``), so nothing reaches a page in the clear; the
/// closures then see the opened copy.
struct RawTable: Sendable {
    /// The database.
    let database: Database
    /// The database's name, bound into every sealed value.
    let name: String
    /// Seals and opens values in an encrypted store; `nil` in a plain one.
    let sealer: ValueSealer?
    /// Whether keys are stored blinded (an encrypted store's text keys,
    /// `RawTable+BlindedKeys.swift`); callers still give and get them in the clear.
    let blindsKeys: Bool

    /// Opens (creating it in a writable environment) the database `name`, whose values
    /// `sealer` seals (none: plain) and whose keys, with `textKeys`, it also blinds.
    init(
        named name: String, in environment: Environment, sealer: ValueSealer? = nil,
        textKeys: Bool = false
    ) throws {
        database = try environment.openDatabase(named: name)
        self.name = name
        self.sealer = sealer
        blindsKeys = textKeys && sealer != nil
    }

    private init(database: Database, name: String, sealer: ValueSealer?) {
        self.database = database
        self.name = name
        self.sealer = sealer
        blindsKeys = false
    }

    /// The same database with its values (not its keys) sealed by `sealer` (none: plain).
    func sealed(by sealer: ValueSealer?) -> RawTable {
        RawTable(database: database, name: name, sealer: sealer)
    }

    /// Calls `body` with the value under `key`; `nil` when there is none.
    ///
    /// - Throws: ``SealedValueDamage`` when a sealed value does not open.
    @inline(__always)
    func withValue<T: ReadableTransaction & ~Copyable, R>(
        forKey key: [UInt8], in txn: borrowing T, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        guard blindsKeys else {
            return try withValueKeeping(forKey: key, in: txn) { value, _ in try body(value) }
        }
        return try storedKey(key).withUnsafeBytes { stored in
            try txn.withValue(forKey: stored, in: database) {
                try opened($0, key: stored) { plaintext in
                    guard let entry = Self.splitEntry(plaintext), entry.key.elementsEqual(key)
                    else {
                        throw SealedValueDamage(table: name, key: Array(stored))
                    }
                    return try body(entry.value)
                }
            }
        }
    }

    /// Calls `body` with `value`, read under `key`, as it was stored: itself in a plain
    /// store, opened in an encrypted one.
    ///
    /// - Throws: ``SealedValueDamage`` when a sealed value does not open.
    @inline(__always)
    func opened<R>(
        _ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        try opened(value, key: key) { bytes, _ in try body(bytes) }
    }

    /// Calls `body` with `value`, read under `key`, as it was stored, and in an encrypted
    /// store the object holding the opened bytes: a caller that keeps pointers into them
    /// beyond `body` keeps the object (in a plain store the transaction's pages hold them).
    @inline(__always)
    func opened<R>(
        _ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, OpenedPlaintext?) throws -> R
    ) throws -> R {
        guard let sealer else { return try body(value, nil) }
        let plaintext = try sealer.open(value, table: name, key: key)
        return try withExtendedLifetime(plaintext) { try body(plaintext.bytes, plaintext) }
    }

    /// A copy of the value under `key`, or `nil`.
    func value<T: ReadableTransaction & ~Copyable>(forKey key: [UInt8], in txn: borrowing T)
        throws -> [UInt8]?
    {
        guard sealer != nil else { return try txn.value(forKey: key, in: database) }
        return try withValue(forKey: key, in: txn) { Array($0) }
    }

    /// Stores `value` under `key`, replacing what was there.
    func put(_ value: [UInt8], forKey key: [UInt8], in txn: borrowing WriteTransaction) throws {
        let stored = storedKey(key)
        try txn.put(
            try self.stored(entryPlaintext(key: key, value: value), key: stored), forKey: stored,
            in: database)
    }

    /// `value` as it is stored under `key`: itself, or sealed in an encrypted store.
    private func stored(_ value: [UInt8], key: [UInt8]) throws -> [UInt8] {
        guard let sealer else { return value }
        return try value.withUnsafeBytes { try sealer.seal($0, table: name, key: key) }
    }

    /// Removes the value under `key`; whether there was one.
    @discardableResult
    func delete(forKey key: [UInt8], in txn: borrowing WriteTransaction) throws -> Bool {
        try txn.delete(forKey: storedKey(key), in: database)
    }

    /// Calls `body(key, value)` for each entry from the first key at or after `start` (the
    /// first entry when empty), in key order, until `body` returns `false`.
    func forEach<T: ReadableTransaction & ~Copyable>(
        from start: [UInt8] = [], in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        guard blindsKeys else {
            return try forEachKeeping(from: start, in: txn) { key, value, _ in
                try body(key, value)
            }
        }
        for entry in try blindedEntries(prefix: [], from: start, in: txn) {
            let goesOn = try entry.key.withUnsafeBytes { key in
                try entry.value.withUnsafeBytes { try body(key, $0) }
            }
            if !goesOn { return }
        }
    }

    /// Calls `body(key, value, owner)` for each entry from the first key at or after
    /// `start`, in key order, until `body` returns `false`; `owner` keeps an encrypted
    /// store's opened value alive (``opened(_:key:_:)``). Keys as stored: not for a table
    /// that blinds them.
    func forEachKeeping<T: ReadableTransaction & ~Copyable>(
        from start: [UInt8], in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, OpenedPlaintext?) throws -> Bool
    ) throws {
        try txn.withCursor(database) { cursor in
            try cursor.forEach(from: start) { key, value in
                try opened(value, key: key) { try body(key, $0, $1) }
            }
        }
    }

    /// Calls `body(value, owner)` with the value under `key`, `owner` keeping an encrypted
    /// store's opened value alive; `nil` when there is none. Not for a table that blinds keys.
    @inline(__always)
    func withValueKeeping<T: ReadableTransaction & ~Copyable, R>(
        forKey key: [UInt8], in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer, OpenedPlaintext?) throws -> R
    ) throws -> R? {
        try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: database) { try opened($0, key: key, body) }
        }
    }

    /// What a walk does with an entry, chosen from its key.
    enum Visit {
        /// Reads the value and passes the entry on.
        case read
        /// Goes on to the next entry without reading the value.
        case skip
        /// Ends the walk.
        case stop
    }

    /// Calls `body(key, value)` for each entry from the first key at or after `start` that
    /// `visit` reads, in key order, until `visit` stops the walk: the values of skipped
    /// entries are not opened. Keys are as stored: not for a table that blinds them.
    func forEach<T: ReadableTransaction & ~Copyable>(
        from start: [UInt8], in txn: borrowing T, visit: (UnsafeRawBufferPointer) -> Visit,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try txn.withCursor(database) { cursor in
            try cursor.forEach(from: start) { key, value in
                switch visit(key) {
                case .stop: return false
                case .skip: return true
                case .read:
                    try opened(value, key: key) { try body(key, $0) }
                    return true
                }
            }
        }
    }

    /// Calls `body(key)` for each key from the first at or after `start`, in order, until
    /// `body` returns `false`; no value is read.
    private func forEachKey<T: ReadableTransaction & ~Copyable>(
        from start: [UInt8] = [], in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try txn.withCursor(database) { cursor in
            try cursor.forEach(from: start) { key, _ in try body(key) }
        }
    }

    /// The keys starting with `prefix`, in order.
    func keys<T: ReadableTransaction & ~Copyable>(prefix: [UInt8], in txn: borrowing T) throws
        -> [[UInt8]]
    {
        if blindsKeys { return try blindedEntries(prefix: prefix, from: [], in: txn).map(\.key) }
        var keys: [[UInt8]] = []
        try forEachKey(from: prefix, in: txn) { key in
            guard key.starts(with: prefix) else { return false }
            keys.append(Array(key))
            return true
        }
        return keys
    }

    /// Runs `body` with a cursor over the database, for walks that move both ways; the
    /// values it reads are as stored: pass them through ``opened(_:key:_:)``.
    func withCursor<T: ReadableTransaction & ~Copyable, R>(
        in txn: borrowing T, _ body: (inout Cursor) throws -> R
    ) throws -> R {
        try txn.withCursor(database, body)
    }

    /// The stored values that do not open, by key (none in a plain store); the keys
    /// `clear` lists are stored in the clear and skipped.
    func unopenableValues<T: ReadableTransaction & ~Copyable>(
        in txn: borrowing T, clear: Set<[UInt8]> = []
    ) throws -> [SealedValueDamage] {
        guard sealer != nil else { return [] }
        var damaged: [SealedValueDamage] = []
        try txn.withCursor(database) { cursor in
            try cursor.forEach(from: []) { key, value in
                guard !clear.contains(Array(key)) else { return true }
                do {
                    try opened(value, key: key) { plaintext in
                        if blindsKeys && Self.splitEntry(plaintext) == nil {
                            throw SealedValueDamage(table: name, key: Array(key))
                        }
                    }
                } catch let damage as SealedValueDamage {
                    damaged.append(damage)
                }
                return true
            }
        }
        return damaged
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
        try forEachKey(in: txn) { key in
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
        guard !blindsKeys else {
            // Blinded keys have no order to append in.
            for (key, value) in values {
                if let value {
                    try put(value, forKey: key, in: txn)
                } else {
                    try delete(forKey: key, in: txn)
                }
            }
            return
        }
        var last = try txn.withCursor(database) { try $0.last().map { Array($0.key) } }
        for (key, value) in values.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            guard let value else {
                try txn.delete(forKey: key, in: database)
                continue
            }
            let appending = last.map { $0.lexicographicallyPrecedes(key) } ?? true
            try stored(value, key: key).withUnsafeBytes { value in
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
