import LMDB

/// The rollup rows one write transaction changes, stored at its end in key order.
///
/// Rows are keyed day first, so the rows of several series written together interleave;
/// put one series at a time, each would land between the previous series' rows and LMDB
/// would split pages in the middle, leaving them half full. Put together in key order after
/// every stored row, they are appended and fill pages whole. Reads of a row this
/// transaction already changed see the change.
final class RowWrites {
    private let database: Database
    /// New bytes of each changed row, or `nil` for a removed row.
    private var changed: [[UInt8]: [UInt8]?] = [:]

    init(database: Database) { self.database = database }

    /// Calls `body` with the row under `key` as this transaction left it, or returns `nil`.
    func withRow<R>(
        forKey key: [UInt8], in txn: borrowing WriteTransaction,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        if let pending = changed[key] {
            return try pending.map { try $0.withUnsafeBytes(body) }
        }
        return try key.withUnsafeBytes { key in try txn.withValue(forKey: key, in: database, body) }
    }

    /// Records `row` (or the removal of the row, when `nil`) under `key`.
    func set(_ row: [UInt8]?, forKey key: [UInt8]) { changed[key] = .some(row) }

    /// Stores every change in key order, appending the rows that sort after every stored row.
    func flush(in txn: borrowing WriteTransaction) throws {
        defer { changed.removeAll() }
        guard !changed.isEmpty else { return }
        var last = try txn.withCursor(database) { try $0.last().map { Array($0.key) } }
        for (key, row) in changed.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            guard let row else {
                try txn.delete(forKey: key, in: database)
                continue
            }
            let appending = last.map { $0.lexicographicallyPrecedes(key) } ?? true
            try row.withUnsafeBytes { row in
                try key.withUnsafeBytes { key in
                    try txn.put(row, forKey: key, in: database, append: appending)
                }
            }
            if appending { last = key }
        }
    }
}
