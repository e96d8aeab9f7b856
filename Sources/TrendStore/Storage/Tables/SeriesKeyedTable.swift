import LMDB

/// A table keyed `seriesID ‖ index` (``StorageKey/make(series:index:)``): the walks and
/// lookups the `blocks` and `hours` tables share.
struct SeriesKeyedTable: Sendable {
    let table: RawTable

    /// Calls `body(index, value)` for each entry of series `id` from index `from` on, in
    /// index order, until `body` returns `false` or the series' entries end.
    func forEach<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, from: Int64 = .min, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try table.forEach(from: StorageKey.make(series: id, index: from), in: txn) { key, value in
            guard let parsed = StorageKey.parse(key), parsed.series == id else { return false }
            return try body(parsed.index, value)
        }
    }

    /// The greatest index series `id` has an entry at; `nil` when it has none. Reads keys
    /// only (one cursor seek), so it opens no sealed value.
    func lastIndex<T: ReadableTransaction & ~Copyable>(series id: UInt32, in txn: borrowing T)
        throws -> Int64?
    {
        try table.withCursor(in: txn) { cursor in
            let greatest = StorageKey.make(series: id, index: .max)
            let found = try cursor.seek(atOrAfter: greatest)
            // The greatest key itself, else the entry before the first one past it.
            let entry =
                try found.flatMap { $0.key.elementsEqual(greatest) ? $0 : nil }
                ?? (found == nil ? try cursor.last() : try cursor.previous())
            guard let entry, let parsed = StorageKey.parse(entry.key), parsed.series == id else {
                return nil
            }
            return parsed.index
        }
    }

    /// Calls `body` with the value of series `id` at `index`; `nil` when there is none.
    func withValue<T: ReadableTransaction & ~Copyable, R>(
        series id: UInt32, index: Int64, in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try table.withValue(forKey: StorageKey.make(series: id, index: index), in: txn, body)
    }

    /// Stores `value` of series `id` at `index`.
    func put(
        _ value: [UInt8], series id: UInt32, index: Int64, in txn: borrowing WriteTransaction
    ) throws {
        try table.put(value, forKey: StorageKey.make(series: id, index: index), in: txn)
    }

    /// Removes the value of series `id` at `index`.
    func delete(series id: UInt32, index: Int64, in txn: borrowing WriteTransaction) throws {
        try table.delete(forKey: StorageKey.make(series: id, index: index), in: txn)
    }

    /// Removes every entry of series `id`.
    func removeAll(series id: UInt32, in txn: borrowing WriteTransaction) throws {
        let prefix = StorageKey.make(series: id, index: .min)
        for key in try table.keys(prefix: Array(prefix.prefix(4)), in: txn)
        where key.count == StorageKey.size {
            try table.delete(forKey: key, in: txn)
        }
    }
}
