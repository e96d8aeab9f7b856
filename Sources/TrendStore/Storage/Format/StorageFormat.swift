/// The on-disk format of a store, recorded in `meta` under `storage-format` (FORMAT.md,
/// ``MetaTable``).
///
/// Format 1 is TrendStore 1.0's; format 2 (1.1) stores blocks of layout 2 (``BlockCodec``),
/// whose gap column may be sparse. This code writes format 2 and reads both: a store of
/// format 1 opened writable is brought to format 2 by a recorded, batched migration
/// (``BlockLayoutMigration``); opened read-only it is read as it is. Stores written by
/// development builds before 1.0 recorded `format-version` (or, the earliest, only their
/// settings) and are refused with an error that says how to bring their samples over.
enum StorageFormat {
    /// The format new stores record, and the one a migration brings older stores to.
    static let current: UInt32 = 2
    /// The formats this code reads.
    static let readable: ClosedRange<UInt32> = 1...2
}
