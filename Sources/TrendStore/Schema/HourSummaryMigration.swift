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
    private static let resumeKey = Array("hour-summaries-resume".utf8)

    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        let storage = context.storage
        if try StorageFormat.stored(meta: context.meta, in: txn) ?? 1 < 4 {
            try StorageFormat.record(4, meta: context.meta, in: txn)
        }
        let days = try storage.formatTwoDatabases().days
        let kinds = Dictionary(
            try storage.allSeriesRecords(in: txn).map { ($0.id, $0.kind) },
            uniquingKeysWith: { first, _ in first })
        let resume = try txn.value(forKey: resumeKey, in: context.meta)
        let rows = try RowWrites(storage: storage, txn: txn)
        var next: [UInt8]?
        var count = 0
        try txn.withCursor(days) { cursor in
            try cursor.forEach(from: resume ?? []) { key, value in
                guard count < batchRows else {
                    next = Array(key)
                    return false
                }
                count += 1
                // A row of a series that no longer exists has nothing to summarise.
                if let parsed = StorageKey.parseDayRow(key), let kind = kinds[parsed.series] {
                    rows.summarize(Array(value), forKey: Array(key), kind: kind)
                }
                return true
            }
        }
        try rows.flush(in: txn)
        if let next {
            try txn.put(next, forKey: resumeKey, in: context.meta)
            return .moreToDo
        }
        try txn.delete(forKey: resumeKey, in: context.meta)
        try storage.recordHourSummariesComplete(in: txn)
        return .finished
    }
}
