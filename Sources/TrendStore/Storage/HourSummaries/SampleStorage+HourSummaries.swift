import LMDB

/// Reads of the hour summaries, by series and group of days
/// (``HourSummaryCodec/group(ofDay:kind:)``).
extension SampleStorage {
    /// Calls `body(group, row, owner)` with the stored summary row of `record` for each of
    /// `groups` (sorted, unique) that it has, in order; `owner` holds an encrypted store's
    /// opened row (``HourSummaryTable/forEachRow(series:groups:in:_:)``).
    func forEachHourSummaryRow<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, groups: [Int64], in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer, OpenedPlaintext?) throws -> Void
    ) throws {
        try hours.forEachRow(series: record.id, groups: groups, in: txn, body)
    }
}
