import LMDB

/// The `aggregates` database: cached aggregates (the caching layer's payloads) under ASCII
/// schema keys (FORMAT.md).
struct PayloadTable: Sendable {
    private let table: RawTable
    /// The database's name.
    static let name = "aggregates"

    /// The underlying database, for tests that inspect or damage stored bytes (the layer
    /// check keeps every other file from naming it).
    var database: Database { table.database }

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        table = try RawTable(
            named: Self.name, in: environment, sealer: sealer, textKeys: true)
    }

    /// Calls `body` with the payload under `key`; `nil` when there is none.
    func withPayload<T: ReadableTransaction & ~Copyable, R>(
        forKey key: String, in txn: borrowing T, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try table.withValue(forKey: Array(key.utf8), in: txn, body)
    }

    /// Stores `payload` under `key`.
    func put(_ payload: [UInt8], forKey key: String, in txn: borrowing WriteTransaction) throws {
        try table.put(payload, forKey: Array(key.utf8), in: txn)
    }

    /// Removes the payload under `key`; whether there was one.
    @discardableResult
    func remove(forKey key: String, in txn: borrowing WriteTransaction) throws -> Bool {
        try table.delete(forKey: Array(key.utf8), in: txn)
    }

    /// The keys starting with `prefix`, in order.
    func keys<T: ReadableTransaction & ~Copyable>(prefix: String, in txn: borrowing T) throws
        -> [String]
    {
        try table.keys(prefix: Array(prefix.utf8), in: txn).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The bytes of the pages holding payloads.
    func byteCount<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> Int {
        try table.byteCount(in: txn)
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { table }

    /// The stored values that do not open (none in a plain store).
    func unopenableValues<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SealedValueDamage]
    {
        try table.unopenableValues(in: txn)
    }
}
