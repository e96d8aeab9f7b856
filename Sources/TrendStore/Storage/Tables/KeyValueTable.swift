import LMDB

/// The `key-values` database: typed-cache entries under `namespace ‖ 0x00 ‖ key` (FORMAT.md).
struct KeyValueTable: StoredTable {
    private let table: RawTable
    /// The database's name.
    static let name = "key-values"

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        table = try RawTable(
            named: Self.name, in: environment, sealer: sealer, textKeys: true)
    }

    /// The key prefix of `namespace`'s entries.
    static func prefix(of namespace: String) -> [UInt8] { Array(namespace.utf8) + [0] }

    /// A copy of the entry under `key`, or `nil`.
    func entry<T: ReadableTransaction & ~Copyable>(forKey key: [UInt8], in txn: borrowing T)
        throws -> [UInt8]?
    {
        try table.value(forKey: key, in: txn)
    }

    /// Stores `entry` under `key`.
    func put(_ entry: [UInt8], forKey key: [UInt8], in txn: borrowing WriteTransaction) throws {
        try table.put(entry, forKey: key, in: txn)
    }

    /// Removes the entry under `key`.
    func remove(forKey key: [UInt8], in txn: borrowing WriteTransaction) throws {
        try table.delete(forKey: key, in: txn)
    }

    /// The keys of the entries starting with `prefix` (a namespace's), in order.
    func keys<T: ReadableTransaction & ~Copyable>(prefix: [UInt8], in txn: borrowing T) throws
        -> [[UInt8]]
    {
        try table.keys(prefix: prefix, in: txn)
    }

    /// Calls `body(key, entry)` for every entry, in key order.
    func forEachEntry<T: ReadableTransaction & ~Copyable>(
        in txn: borrowing T, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void
    ) throws {
        try table.forEach(in: txn) { key, value in
            body(key, value)
            return true
        }
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { table }
}
