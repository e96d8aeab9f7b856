import Foundation
import LMDB

/// Storage format 4 → 5: the change log. The store draws its id and starts an empty log in
/// the `sync` database (created when the store is opened writable); the samples it already
/// holds have no recorded version (``ChangeVersion/unrecorded``), which every later write
/// beats, and a change feed from no anchor gives them all. One transaction: from it on,
/// releases that keep no change log refuse the store, so none writes a change the log
/// would miss.
enum ChangeLogMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0005-change-log"

    /// Records the store's sync state and format 5.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        guard let sync = context.storage.sync else {
            throw StoreError.incompatibleFormat("the store has no sync table")
        }
        if try sync.state(in: txn) == nil {
            try sync.putState(
                SyncState(store: .random(), clock: 0, lastPosition: 0, prunedThrough: 0), in: txn)
        }
        try context.meta.recordFormat(5, in: txn)
    }
}
