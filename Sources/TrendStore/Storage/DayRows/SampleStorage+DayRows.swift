import LMDB

/// Reads of the rollup rows in `days`, keyed day first (``StorageKey/dayRowKey(series:day:)``).
extension SampleStorage {
    /// Calls `body(day, row)` for each rollup row of series `id`, in day order: a walk over
    /// every series' rows (they are keyed by day first).
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try txn.withCursor(days) { cursor in
            try cursor.forEach { key, value in
                if let parsed = StorageKey.parseDayRow(key), parsed.series == id {
                    try body(parsed.day, value)
                }
                return true
            }
        }
    }

    /// Every rollup row, by series and day, from one walk over the rows (a walk per series
    /// would cost the rows of every series for each one).
    func rowsBySeries<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [UInt32: [Int64: [UInt8]]]
    {
        var rows: [UInt32: [Int64: [UInt8]]] = [:]
        try txn.withCursor(days) { cursor in
            try cursor.forEach { key, value in
                if let parsed = StorageKey.parseDayRow(key) {
                    rows[parsed.series, default: [:]][parsed.day] = Array(value)
                }
                return true
            }
        }
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
    /// `isWanted` says whether a day is one of them) that it has, in day order: by point
    /// lookups when the days are sparse, by one cursor walk when they are an eighth of
    /// their span or more.
    func forEachDayRow<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, days: [Int64], isWanted: (Int64) -> Bool, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let first = days.first, let last = days.last else { return }
        let span = Int(last - first + 1)
        // A cursor step costs a tenth of a lookup's descent: walk unless the days are sparse
        // or too few to pay for opening a cursor.
        if days.count > 2 && days.count * 8 >= span {
            // One walk over the range's rows, skipping other series' (rows are keyed by day first).
            try txn.withCursor(self.days) { cursor in
                try cursor.forEach(from: StorageKey.dayRowKey(series: record.id, day: first)) {
                    key, value in
                    guard let parsed = StorageKey.parseDayRow(key), parsed.day <= last else {
                        return false
                    }
                    if parsed.series == record.id && isWanted(parsed.day) {
                        try body(parsed.day, value)
                    }
                    return true
                }
            }
        } else {
            for day in days {
                try StorageKey.dayRowKey(series: record.id, day: day).withUnsafeBytes { key in
                    _ = try txn.withValue(forKey: key, in: self.days) { try body(day, $0) }
                }
            }
        }
    }
}
