import LMDB

/// The `blocks` database: sample blocks (``BlockCodec``) keyed `seriesID ‖ first start`;
/// a block holds the starts from its key up to the next key of its series.
struct BlockTable: SeriesOwnedTable {
    private let keyed: SeriesKeyedTable
    /// The database's name.
    static let name = "blocks"

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        keyed = SeriesKeyedTable(
            table: try RawTable(named: Self.name, in: environment, sealer: sealer))
    }

    /// Calls `body(firstStart, bytes)` for each block of series `id` that may hold samples
    /// starting in `[from, through]`, in time order, until `body` returns `false`: one
    /// cursor walk, no lookup per block. The block before `from` is included when
    /// `reaches(firstStart, bytes)` says its largest start reaches `from`.
    func forEachBlock<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, startingFrom from: Int64, through: Int64, in txn: borrowing T,
        reaches: (Int64, UnsafeRawBufferPointer) throws -> Bool,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        guard from <= through else { return }
        try keyed.table.withCursor(in: txn) { cursor in
            let start = StorageKey.make(series: id, index: from)
            var entry = try cursor.seek(atOrAfter: start)
            let atFrom =
                entry.flatMap { StorageKey.parse($0.key) }.map {
                    $0.series == id && $0.index == from
                } ?? false
            if !atFrom {
                // The block before `from` holds starts up to the next key: include it when
                // its largest start reaches `from`.
                let previous = entry == nil ? try cursor.last() : try cursor.previous()
                if let previous, let parsed = StorageKey.parse(previous.key), parsed.series == id,
                    try !keyed.table.opened(
                        previous.value, key: previous.key,
                        { try !reaches(parsed.index, $0) || body(parsed.index, $0) })
                {
                    return
                }
                // Back to the first block at or after `from` (a failed move leaves LMDB's
                // cursor nowhere: seek again then).
                if entry != nil {
                    entry = previous != nil ? try cursor.next() : try cursor.seek(atOrAfter: start)
                }
            }
            while let current = entry, let parsed = StorageKey.parse(current.key),
                parsed.series == id, parsed.index <= through,
                try keyed.table.opened(
                    current.value, key: current.key, { try body(parsed.index, $0) })
            {
                entry = try cursor.next()
            }
        }
    }

    /// Calls `body(firstStart, bytes)` for each block of series `id`, in time order, until
    /// `body` returns `false`.
    func forEachBlock<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try keyed.forEach(series: id, in: txn, body)
    }

    /// Calls `body` with the bytes of the block of series `id` keyed `firstStart`; `nil`
    /// when there is none.
    func withBlock<T: ReadableTransaction & ~Copyable, R>(
        series id: UInt32, firstStart: Int64, in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try keyed.withValue(series: id, index: firstStart, in: txn, body)
    }

    /// The key of the block a sample of series `id` starting at `start` belongs in (`nil`
    /// when the series has none: the greatest key at or before `start`, else the first),
    /// and the key of the block after it.
    func locate(series id: UInt32, start: Int64, in txn: borrowing WriteTransaction) throws -> (
        target: Int64?, next: Int64?
    ) {
        try keyed.table.withCursor(in: txn) { cursor in
            func ownKey(_ entry: Cursor.Entry?) -> Int64? {
                guard let entry, let parsed = StorageKey.parse(entry.key), parsed.series == id
                else { return nil }
                return parsed.index
            }
            let found = try cursor.seek(atOrAfter: StorageKey.make(series: id, index: start))
            let atOrAfter = ownKey(found)
            if atOrAfter == start { return (start, ownKey(try cursor.next())) }
            if let before = ownKey(found == nil ? try cursor.last() : try cursor.previous()) {
                return (before, atOrAfter)
            }
            // Earlier than every block: the first block takes it.
            guard let first = atOrAfter else { return (nil, nil) }
            _ = try cursor.seek(atOrAfter: StorageKey.make(series: id, index: first))
            return (first, ownKey(try cursor.next()))
        }
    }

    /// Stores `bytes` as the block of series `id` keyed `firstStart`.
    func put(
        _ bytes: [UInt8], series id: UInt32, firstStart: Int64,
        in txn: borrowing WriteTransaction
    ) throws {
        try keyed.put(bytes, series: id, index: firstStart, in: txn)
    }

    /// Removes the block of series `id` keyed `firstStart`.
    func delete(series id: UInt32, firstStart: Int64, in txn: borrowing WriteTransaction) throws {
        try keyed.delete(series: id, index: firstStart, in: txn)
    }

    /// Removes every block of series `id`.
    func removeAll(series id: UInt32, in txn: borrowing WriteTransaction) throws {
        try keyed.removeAll(series: id, in: txn)
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { keyed.table }
}
