import LMDB

/// A table of the store over one named LMDB database (``RawTable``): what every table offers
/// alike for checks, sizes and copies, written once here.
protocol StoredTable: Sendable {
    /// The database's name.
    static var name: String { get }
    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { get }
}

extension StoredTable {
    /// The underlying database, for tests that inspect or damage stored bytes (the layer
    /// check keeps every file outside this folder from naming it).
    var database: Database { raw.database }

    /// The bytes of the pages holding the database.
    func byteCount<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> Int {
        try raw.byteCount(in: txn)
    }

    /// How many entries a walk reaches against how many LMDB records.
    func reach<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> TableReach {
        try raw.reach(named: Self.name, in: txn)
    }

    /// The stored values that do not open (none in a plain store).
    func unopenableValues<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SealedValueDamage]
    {
        try raw.unopenableValues(in: txn)
    }
}

/// A table whose every key names the series it belongs to, so the integrity check can tell
/// each entry's owner.
protocol SeriesOwnedTable: StoredTable {
    /// The series `key` names, or `nil` for a key of no known shape.
    static func owner(ofKey key: UnsafeRawBufferPointer) -> UInt32?
}

extension SeriesOwnedTable {
    /// The series a key `seriesID ‖ index` names (``StorageKey/parse(_:)``).
    static func owner(ofKey key: UnsafeRawBufferPointer) -> UInt32? {
        StorageKey.parse(key)?.series
    }

    /// Calls `body` with the series each key names, and returns the walk's reach.
    func forEachOwner<T: ReadableTransaction & ~Copyable>(
        in txn: borrowing T, _ body: (UInt32?) -> Void
    ) throws -> TableReach {
        try raw.forEachOwner(named: Self.name, in: txn, owner: Self.owner(ofKey:), body)
    }
}
