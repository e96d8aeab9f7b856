import LMDB

/// Reads of the hour summaries in `hours`, keyed by series and group of days
/// (``HourSummaryCodec/group(ofDay:kind:)``).
extension SampleStorage {
    /// Calls `body(group, row)` with the stored summary row of `record` for each of `groups`
    /// (sorted, unique) that it has, in order: one cursor walk over the rows when they are
    /// dense, a lookup per row when they are sparse.
    func forEachHourSummaryRow<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, groups: [Int64], in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let firstGroup = groups.first, let lastGroup = groups.last else { return }
        // A cursor step costs a tenth of a lookup's descent: walk unless the rows are sparse.
        if groups.count * 4 >= Int(lastGroup - firstGroup + 1) {
            try txn.withCursor(hours) { cursor in
                try cursor.forEach(from: StorageKey.make(series: record.id, index: firstGroup)) {
                    key, value in
                    guard let parsed = StorageKey.parse(key), parsed.series == record.id,
                        parsed.index <= lastGroup
                    else { return false }
                    try body(parsed.index, value)
                    return true
                }
            }
        } else {
            for group in groups {
                try StorageKey.make(series: record.id, index: group).withUnsafeBytes { key in
                    _ = try txn.withValue(forKey: key, in: hours) { try body(group, $0) }
                }
            }
        }
    }
}
