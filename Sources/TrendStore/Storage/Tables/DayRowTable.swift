import LMDB

/// The `days` database: rollup rows (``RollupRowCodec``) keyed `day ‖ seriesID`
/// (``StorageKey/dayRowKey(series:day:)``), day first so rows written as time goes on are
/// appended.
struct DayRowTable: SeriesOwnedTable {
    private let table: RawTable
    /// The database's name.
    static let name = "days"

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        table = try RawTable(named: Self.name, in: environment, sealer: sealer)
    }

    /// Calls `body(series, day, row)` for every row, in key order (day, then series).
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        in txn: borrowing T, _ body: (UInt32, Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try table.forEach(in: txn) { key, value in
            if let parsed = StorageKey.parseDayRow(key) {
                try body(parsed.series, parsed.day, value)
            }
            return true
        }
    }

    /// Calls `body(day, row)` for each row of series `id`, in day order: a walk over every
    /// series' keys (they are keyed by day first) that reads only this series' rows.
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try table.forEach(
            from: [], in: txn,
            visit: { StorageKey.parseDayRow($0)?.series == id ? .read : .skip }
        ) { key, value in
            // The visit read the key: it parses.
            if let day = StorageKey.parseDayRow(key)?.day { try body(day, value) }
        }
    }

    /// Calls `body(day, row)` with the row of series `id` on each of `days` (sorted, unique;
    /// `isWanted` says whether a day is one of them) that it has, in day order: by point
    /// lookups when the days are sparse, by one cursor walk when they are dense
    /// (``WalkOrLookUp``).
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, days: [Int64], isWanted: (Int64) -> Bool, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let first = days.first, let last = days.last else { return }
        if WalkOrLookUp.walks(wanted: days.count, span: Int(last - first + 1)) {
            // One walk over the range's rows, skipping other series' (rows are keyed by day first).
            try table.forEach(
                from: StorageKey.dayRowKey(series: id, day: first), in: txn,
                visit: { key in
                    guard let parsed = StorageKey.parseDayRow(key), parsed.day <= last else {
                        return .stop
                    }
                    return parsed.series == id && isWanted(parsed.day) ? .read : .skip
                }
            ) { key, value in
                // The visit read the key: it parses.
                if let day = StorageKey.parseDayRow(key)?.day { try body(day, value) }
            }
        } else {
            for day in days {
                _ = try table.withValue(forKey: StorageKey.dayRowKey(series: id, day: day), in: txn)
                {
                    try body(day, $0)
                }
            }
        }
    }

    /// Calls `body` with the row under `key`; `nil` when there is none.
    func withRow<T: ReadableTransaction & ~Copyable, R>(
        forKey key: DayRowKey, in txn: borrowing T, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try table.withValue(forKey: key.bytes, in: txn, body)
    }

    /// Puts (or, for `nil`, removes) each row by key, in key order (appending where it can).
    func store(_ rows: [DayRowKey: [UInt8]?], in txn: borrowing WriteTransaction) throws {
        var stored: [[UInt8]: [UInt8]?] = [:]
        stored.reserveCapacity(rows.count)
        for (key, row) in rows { stored[key.bytes] = .some(row) }
        try table.putInKeyOrder(stored, in: txn)
    }

    /// Removes the row of series `id` on `day`.
    func delete(series id: UInt32, day: Int64, in txn: borrowing WriteTransaction) throws {
        try table.delete(forKey: StorageKey.dayRowKey(series: id, day: day), in: txn)
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { table }

    /// The series a row's key names (day first, then series).
    static func owner(ofKey key: UnsafeRawBufferPointer) -> UInt32? {
        StorageKey.parseDayRow(key)?.series
    }
}
