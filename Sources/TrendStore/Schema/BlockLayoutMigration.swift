import Foundation
import LMDB

/// Storage format 1 → 2: every block of layout 1 is rewritten in layout 2 (``BlockCodec``:
/// a gap column mostly of zeros is stored sparse), the same samples under the same keys,
/// ``blocksPerBatch`` blocks a transaction.
///
/// Every batch records storage format 2 (from the first on, a build that reads only format 1
/// refuses the store rather than meet blocks it cannot read); every batch records where
/// the next one resumes (`meta`'s `block-rewrite-position`) in its own transaction, so a
/// crash resumes after the last committed batch, and the last one removes that record as
/// the migration is recorded. A store read meanwhile answers the same: this build reads
/// both layouts.
enum BlockLayoutMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0002-blocks-to-layout-2"
    /// Blocks rewritten per transaction: about 256 KB of pages, a few tens of milliseconds.
    static let blocksPerBatch = 16

    /// Rewrites the next batch.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        try context.meta.recordFormat(2, in: txn)
        let next = try context.storage.rewriteLayoutOneBlocks(
            from: try context.meta.blockRewritePosition(in: txn), limit: blocksPerBatch, in: txn)
        try context.meta.setBlockRewritePosition(next, in: txn)
        return next == nil ? .finished : .moreToDo
    }
}
