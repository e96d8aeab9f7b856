import Foundation
import LMDB

/// Storage format 3 → 4: every rollup row gets its day's hour summary (``DayHours``), in
/// batches of ``batchRows`` rows in key order, each its own transaction.
///
/// The first batch records format 4, so code that would write rows without summaries
/// refuses the store from then on; readers use summaries only once the last batch has
/// recorded them complete, and add slots before, so the store answers the same between
/// any two batches. Where the next batch starts is kept in `meta`.
enum HourSummaryMigration {
    /// Rows summarised per transaction: a few milliseconds of work.
    static let batchRows = 4_096
    private static let batches = DayRowBatches(
        resumeKey: Array("hour-summaries-resume".utf8), batchRows: batchRows)

    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        let storage = context.storage
        try StorageFormat.raise(to: 4, meta: context.meta, in: txn)
        let kinds = Dictionary(
            try storage.allSeriesRecords(in: txn).map { ($0.id, $0.kind) },
            uniquingKeysWith: { first, _ in first })
        let rows = try RowWrites(storage: storage, txn: txn)
        let progress = try batches.visitNext(
            days: try storage.formatTwoDatabases().days, meta: context.meta, in: txn
        ) { key, value in
            // A row of a series that no longer exists has nothing to summarise.
            if let parsed = StorageKey.parseDayRow(key), let kind = kinds[parsed.series] {
                rows.summarize(Array(value), forKey: Array(key), kind: kind)
            }
        }
        try rows.flush(in: txn)
        if progress == .finished { try storage.recordHourSummariesComplete(in: txn) }
        return progress
    }
}
