import Foundation
import LMDB

/// Storage format 5 → 6: every cumulative series' row in the exact form is rebuilt from its
/// samples as a row of version 4 (``CompactRowCodec``), in batches of ``batchRows`` rows
/// in key order, each its own transaction.
///
/// The first batch records format 6, so code that cannot read version-4 rows refuses the
/// store from then on. A rebuilt row holds the same figures, bit for bit, as the row it
/// replaces, and readers read both versions, so the store answers the same between any two
/// batches; its hour summaries are rebuilt with it, the same bytes. Where the next batch
/// starts is kept in `meta`.
enum CompactRowsMigration {
    /// Rows looked at per transaction: rebuilding one reads its day's samples, well under
    /// a second for a batch of minute-cadence days.
    static let batchRows = 1_024
    private static let resumeKey = Array("compact-rows-resume".utf8)

    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        let storage = context.storage
        if try StorageFormat.stored(meta: context.meta, in: txn) ?? 1 < 6 {
            try StorageFormat.record(6, meta: context.meta, in: txn)
        }
        let days = try storage.formatTwoDatabases().days
        let records = Dictionary(
            try storage.allSeriesRecords(in: txn).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let resume = try txn.value(forKey: resumeKey, in: context.meta)
        var toRebuild: [UInt32: [Int64]] = [:]
        var next: [UInt8]?
        var count = 0
        try txn.withCursor(days) { cursor in
            try cursor.forEach(from: resume ?? []) { key, row in
                guard count < batchRows else {
                    next = Array(key)
                    return false
                }
                count += 1
                if let (series, day) = StorageKey.parseDayRow(key),
                    records[series]?.kind == .cumulative, isOlderExactRow(row)
                {
                    toRebuild[series, default: []].append(day)
                }
                return true
            }
        }
        let rows = try RowWrites(storage: storage, txn: txn)
        let zlib = ZlibCodec(level: 1)
        for (series, seriesDays) in toRebuild {
            guard let record = records[series] else { continue }
            var writer = try SeriesWriter(storage: storage, record: record, zlib: zlib, rows: rows)
            for day in seriesDays { try writer.rebuildRows(ofDays: day..<(day + 1), in: txn) }
        }
        try rows.flush(in: txn)
        if let next {
            try txn.put(next, forKey: resumeKey, in: context.meta)
            return .moreToDo
        }
        try txn.delete(forKey: resumeKey, in: context.meta)
        return .finished
    }

    /// Whether `row` is a row of version 2 or 3 in the exact form (rows in the `Double`
    /// form stay as they are: version 4 does not apply to them).
    private static func isOlderExactRow(_ row: UnsafeRawBufferPointer) -> Bool {
        row.count > 2
            && (row[0] == RollupRowCodec.version || row[0] == RollupRowCodec.zlibChecksumVersion)
            && row[1] != RollupRowCodec.doubleMarker
    }
}
