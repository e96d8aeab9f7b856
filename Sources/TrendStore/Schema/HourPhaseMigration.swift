import Foundation
import LMDB

/// Storage format 8 → 9: records where the store's hour summaries begin, in one transaction
/// that records format 9: the phase the store was opened with, which is ``HourPhase/utc``
/// for every store of an earlier format (their summaries are of UTC hours). Nothing else
/// changes: only a store created at format 9 may have another phase.
enum HourPhaseMigration {
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try StorageFormat.recordHourPhase(
            context.storage.hourPhase, meta: context.meta, in: txn)
        try StorageFormat.raise(to: StorageFormat.recordsHourPhase, meta: context.meta, in: txn)
    }
}
