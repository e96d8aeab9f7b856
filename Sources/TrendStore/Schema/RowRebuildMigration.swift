import Foundation
import LMDB

/// Storage format 5 → 6: priority changes rebuild a series' rows in batches. A store of
/// format 6 may hold a series marked as rebuilding (``SeriesRecord/rebuildsRows``) whose
/// rows follow its old order on days not yet rebuilt; releases before it would read those
/// rows, so from this step on they refuse the store. Older stores hold no such mark, so the
/// step only records format 6, in one transaction.
enum RowRebuildMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0006-batched-row-rebuilds"

    /// Records format 6.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try context.meta.recordFormat(6, in: txn)
    }
}
