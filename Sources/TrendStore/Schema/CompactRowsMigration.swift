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
    private static let batches = DayRowBatches(
        resumeKey: Array("compact-rows-resume".utf8), batchRows: batchRows)

    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        let storage = context.storage
        try StorageFormat.raise(to: 6, meta: context.meta, in: txn)
        let records = Dictionary(
            try storage.allSeriesRecords(in: txn).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        var toRebuild: [UInt32: [Int64]] = [:]
        let progress = try batches.visitNext(
            days: try storage.formatTwoDatabases().days, meta: context.meta, in: txn
        ) { key, row in
            if let (series, day) = StorageKey.parseDayRow(key),
                records[series]?.kind == .cumulative, isOlderExactRow(row)
            {
                toRebuild[series, default: []].append(day)
            }
        }
        // Rebuilt after the walk: the rows are written to the database the walk reads.
        let rows = try RowWrites(storage: storage, txn: txn)
        let zlib = ZlibCodec(level: 1)
        for (series, seriesDays) in toRebuild {
            guard let record = records[series] else { continue }
            var writer = try SeriesWriter(storage: storage, record: record, zlib: zlib, rows: rows)
            for day in seriesDays { try writer.rebuildRows(ofDays: day..<(day + 1), in: txn) }
        }
        try rows.flush(in: txn)
        return progress
    }

    /// Whether `row` is a row of version 2 or 3 in the exact form (rows in the `Double`
    /// form stay as they are: version 4 does not apply to them).
    private static func isOlderExactRow(_ row: UnsafeRawBufferPointer) -> Bool {
        row.count > 2
            && (row[0] == RollupRowCodec.version || row[0] == RollupRowCodec.zlibChecksumVersion)
            && row[1] != RollupRowCodec.doubleMarker
    }
}
