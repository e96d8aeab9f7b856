import Foundation
import LMDB

/// Storage format 4 → 5: rollup rows written from now on are checked by CRC-32C (row
/// version 3) instead of zlib's CRC-32 (version 2), in one transaction that only records
/// format 5.
///
/// Rows already stored keep version 2 and are read as they are until a write rewrites
/// them; recording the format first makes code that reads only version 2 refuse the store
/// before it could meet a version-3 row.
enum RowChecksumMigration {
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try StorageFormat.raise(to: 5, meta: context.meta, in: txn)
    }
}
