import Foundation
import LMDB

/// Storage format 7 → 8: samples may carry ids (``SampleID``). A store of format 8 may hold
/// sample versions of layout 3, deletions by id and the index of ids in `sync`, and series
/// records marked as keeping ids, none of which a release before it reads; older stores hold
/// none, so the step only records format 8, in one transaction, and from then on those
/// releases refuse the store.
enum SampleIDMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0008-sample-ids"

    /// Records format 8.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try context.meta.recordFormat(StorageFormat.sampleIDs, in: txn)
    }
}
