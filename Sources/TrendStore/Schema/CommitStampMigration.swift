import Foundation
import LMDB

/// Storage format 2 → 3: the store records format 3, whose every commit stamps its own id
/// in `meta` (`commit-stamp`, ``MetaTable/checkCommitStamp(format:in:path:)``). One
/// transaction, stamped like every commit of this build: from it on, releases that do not
/// stamp refuse to write the store, so its stamp always names the commit that wrote it.
enum CommitStampMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0003-commit-stamps"

    /// Records format 3.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try context.meta.recordFormat(3, in: txn)
    }
}
