import Foundation
import LMDB

/// Storage format 1 → 2: each format-1 chunk (one series, one UTC week) becomes blocks
/// with per-block value coding, and each format-1 rollup block of seven days becomes one
/// row per day, in batches of one chunk or one rollup block, each its own transaction.
///
/// Between any two batches the store answers the same: readers read both formats (a
/// week lives in exactly one of them; a format-2 row of a day replaces a format-1 row).
/// The last batch records format version 2.
enum FormatTwoMigration {
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        let storage = context.storage
        let zlib = ZlibCodec(level: 1)
        let rows = try RowWrites(storage: storage, txn: txn)
        if let (series, window) = try firstKey(in: storage.chunks, txn: txn) {
            guard let record = try record(series, storage: storage, txn: txn) else {
                try txn.delete(
                    forKey: StorageKey.make(series: series, index: window), in: storage.chunks)
                return .moreToDo
            }
            var writer = try SeriesWriter(
                storage: storage, record: record, zlib: zlib, rows: rows)
            try writer.migrate(.chunk(window: window), in: txn)
            try writer.finish(in: txn)
            try rows.flush(in: txn)
            return .moreToDo
        }
        if let (series, block) = try firstKey(in: storage.rollups, txn: txn) {
            // Every chunk is moved; days whose rows the moves did not rebuild are rebuilt here.
            if let record = try record(series, storage: storage, txn: txn) {
                var writer = try SeriesWriter(
                    storage: storage, record: record, zlib: zlib, rows: rows)
                try writer.rebuildRows(
                    ofDays: (block * RollupBlock.days)..<((block + 1) * RollupBlock.days), in: txn)
                try rows.flush(in: txn)
            }
            try txn.delete(
                forKey: StorageKey.make(series: series, index: block), in: storage.rollups)
            return .moreToDo
        }
        try StorageFormat.raise(to: 2, meta: context.meta, in: txn)
        return .finished
    }

    /// The series and index of the first key of `database`, or `nil` when it is empty.
    private static func firstKey(in database: Database, txn: borrowing WriteTransaction) throws
        -> (UInt32, Int64)?
    {
        try txn.withCursor(database) { cursor in
            try cursor.first().flatMap { StorageKey.parse($0.key) }.map { ($0.series, $0.index) }
        }
    }

    /// The series with id `id`, or `nil` when none owns it (its data is then dropped).
    private static func record(
        _ id: UInt32, storage: SampleStorage, txn: borrowing WriteTransaction
    ) throws -> SeriesRecord? {
        try storage.allSeriesRecords(in: txn).first { $0.id == id }
    }
}
