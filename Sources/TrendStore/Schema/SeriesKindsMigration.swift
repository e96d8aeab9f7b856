import Foundation
import LMDB

/// Storage format 2 → 3: every series record states its kind, and every series of an
/// older store is cumulative (SPEC §3.4), in one transaction with the record of format 3.
///
/// Before it runs, a record without a kind reads as cumulative, so a crash on either side
/// leaves a store that answers the same.
enum SeriesKindsMigration {
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        for record in try context.storage.allSeriesRecords(in: txn) {
            try context.storage.saveSeriesRecord(record, in: txn)
        }
        try StorageFormat.raise(to: 3, meta: context.meta, in: txn)
    }
}
