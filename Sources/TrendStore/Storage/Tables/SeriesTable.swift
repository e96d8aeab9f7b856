import LMDB

/// The `series` database: the series registry, ``SeriesRecord``s by NFC name.
struct SeriesTable: StoredTable {
    private let table: RawTable
    /// The database's name.
    static let name = "series"

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        table = try RawTable(
            named: Self.name, in: environment, sealer: sealer, textKeys: true)
    }

    /// The record of `name` (already NFC), or `nil`; a record that cannot be read is `nil` too.
    func record<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> SeriesRecord?
    {
        try table.withValue(forKey: Array(name.utf8), in: txn) {
            SeriesRecord(name: name, bytes: $0)
        } ?? nil
    }

    /// Every readable record, in name order.
    func allRecords<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesRecord]
    {
        var records: [SeriesRecord] = []
        try table.forEach(in: txn) { key, value in
            if let record = SeriesRecord(name: String(decoding: key, as: UTF8.self), bytes: value) {
                records.append(record)
            }
            return true
        }
        return records
    }

    /// Stores `record` under its name.
    func put(_ record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        try table.put(record.encoded(), forKey: Array(record.name.utf8), in: txn)
    }

    /// Removes the record of `name`.
    func remove(named name: String, in txn: borrowing WriteTransaction) throws {
        try table.delete(forKey: Array(name.utf8), in: txn)
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { table }
}
