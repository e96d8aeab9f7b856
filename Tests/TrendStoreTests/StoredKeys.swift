import LMDB
@testable import TrendStore

/// The indices (block first starts, summary groups) of the keys of series `id` in
/// `database`, a database keyed by ``StorageKey/make(series:index:)``, in order.
func storedIndices<T: ReadableTransaction & ~Copyable>(
    in database: Database, series id: UInt32, txn: borrowing T
) throws -> [Int64] {
    try txn.withCursor(database) { cursor in
        var found: [Int64] = []
        try cursor.forEach(from: StorageKey.make(series: id, index: .min)) { key, _ in
            guard let parsed = StorageKey.parse(key), parsed.series == id else { return false }
            found.append(parsed.index)
            return true
        }
        return found
    }
}
