/// The on-disk format of a store, recorded in `meta` under `storage-format` (FORMAT.md,
/// ``MetaTable``).
///
/// TrendStore 1.0 writes and reads format 1. Stores written by development builds before
/// 1.0 recorded `format-version` (or, the earliest, only their settings) and are refused
/// with an error that says how to bring their samples over.
enum StorageFormat {
    /// The format new stores record, and the only one this code reads.
    static let current: UInt32 = 1
}
