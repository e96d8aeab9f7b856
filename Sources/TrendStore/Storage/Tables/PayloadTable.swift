import LMDB

/// The `aggregates` database: cached aggregates (the caching layer's payloads) under ASCII
/// schema keys (FORMAT.md).
struct PayloadTable: StoredTable {
    private let table: RawTable
    /// The database's name.
    static let name = "aggregates"

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        table = try RawTable(
            named: Self.name, in: environment, sealer: sealer, textKeys: true)
    }

    /// The longest key LMDB stores, in bytes.
    static let maximumKeyBytes = 511

    /// Calls `body` with the payload under `key`; `nil` when there is none (a key too long
    /// to store never has one).
    func withPayload<T: ReadableTransaction & ~Copyable, R>(
        forKey key: String, in txn: borrowing T, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        guard fits(key) else { return nil }
        return try table.withValue(forKey: Array(key.utf8), in: txn, body)
    }

    /// Stores `payload` under `key`.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` when the key, as stored, is longer
    ///   than LMDB keeps (a series name of 255 bytes of `/`, `%` or `,`, each escaped to three).
    func put(_ payload: [UInt8], forKey key: String, in txn: borrowing WriteTransaction) throws {
        guard fits(key) else {
            throw StoreError.invalidArgument(
                .cachedFigures,
                reason:
                    "the cache key \"\(key.prefix(60))…\" is \(table.storedKey(Array(key.utf8)).count) bytes as stored, more than the \(Self.maximumKeyBytes) a key may be (its series name escapes too long): the figure is not cached"
            )
        }
        try table.put(payload, forKey: Array(key.utf8), in: txn)
    }

    /// Removes the payload under `key`; whether there was one.
    @discardableResult
    func remove(forKey key: String, in txn: borrowing WriteTransaction) throws -> Bool {
        guard fits(key) else { return false }
        return try table.delete(forKey: Array(key.utf8), in: txn)
    }

    /// Whether `key`, as stored (blinded in an encrypted store), fits an LMDB key.
    private func fits(_ key: String) -> Bool {
        table.storedKey(Array(key.utf8)).count <= Self.maximumKeyBytes
    }

    /// The keys starting with `prefix`, in order.
    func keys<T: ReadableTransaction & ~Copyable>(prefix: String, in txn: borrowing T) throws
        -> [String]
    {
        try table.keys(prefix: Array(prefix.utf8), in: txn).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { table }
}
