import Foundation
import LMDB

/// Storage format 6 or 7 → 8: blocks written from now on may bit-pack their columns
/// (``BlockCodec`` format 3), in one transaction that records format 8 and, for a store of
/// format 6, its rollup grid (quarter-hour rows: the only grid before format 7).
///
/// Blocks already stored keep format 2 and are read as they are until a write rewrites
/// them; recording the format first makes code that reads only format-2 blocks refuse the
/// store before it could meet a format-3 block.
enum PackedBlocksMigration {
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        if try StorageFormat.storedGrid(meta: context.meta, in: txn) == nil {
            try StorageFormat.recordGrid(context.storage.rollupGrid, meta: context.meta, in: txn)
        }
        try StorageFormat.raise(to: StorageFormat.packedBlocks, meta: context.meta, in: txn)
    }
}
