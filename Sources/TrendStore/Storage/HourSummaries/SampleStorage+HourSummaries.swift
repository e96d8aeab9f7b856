import LMDB

/// Reads of the hour summaries, by series and group of days
/// (``HourSummaryCodec/group(ofDay:kind:)``).
extension SampleStorage {
    /// Calls `body(group, row)` with the stored summary row of `record` for each of `groups`
    /// (sorted, unique) that it has, in order.
    func forEachHourSummaryRow<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, groups: [Int64], in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try hours.forEachRow(series: record.id, groups: groups, in: txn, body)
    }
}
