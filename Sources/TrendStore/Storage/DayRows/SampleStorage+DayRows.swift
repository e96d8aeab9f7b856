import LMDB

/// Reads of the rollup rows in `days`, keyed day first (``StorageKey/dayRowKey(series:day:)``).
extension SampleStorage {
    /// Calls `body(day, row)` for each rollup row of series `id`, in day order: a walk over
    /// every series' rows (they are keyed by day first).
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try days.forEachRow(series: id, in: txn, body)
    }

    /// Every rollup row, by series and day, from one walk over the rows (a walk per series
    /// would cost the rows of every series for each one).
    func rowsBySeries<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [UInt32: [Int64: [UInt8]]]
    {
        var rows: [UInt32: [Int64: [UInt8]]] = [:]
        try days.forEachRow(in: txn) { series, day, row in
            rows[series, default: [:]][day] = Array(row)
        }
        return rows
    }

    /// The rollup rows of series `id`, by UTC day.
    func rows<T: ReadableTransaction & ~Copyable>(of id: UInt32, in txn: borrowing T) throws
        -> [Int64: [UInt8]]
    {
        var rows: [Int64: [UInt8]] = [:]
        try forEachRow(series: id, in: txn) { day, row in rows[day] = Array(row) }
        return rows
    }

    /// The UTC days that have a rollup row of series `id`, in order.
    func rowDays<T: ReadableTransaction & ~Copyable>(series id: UInt32, in txn: borrowing T)
        throws -> [Int64]
    {
        var found: [Int64] = []
        try forEachRow(series: id, in: txn) { day, _ in found.append(day) }
        return found
    }

    /// Calls `body(day, row)` with the row of `record` on each of `days` (sorted, unique;
    /// `isWanted` says whether a day is one of them) that it has, in day order.
    func forEachDayRow<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, days wanted: [Int64], isWanted: (Int64) -> Bool,
        in txn: borrowing T, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try days.forEachRow(series: record.id, days: wanted, isWanted: isWanted, in: txn, body)
    }
}
