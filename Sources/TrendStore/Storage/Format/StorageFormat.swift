/// The on-disk format of a store, recorded in `meta` under `storage-format` (FORMAT.md,
/// ``MetaTable``).
///
/// Format 1 is TrendStore 1.0's; format 2 stores blocks of layout 2 (``BlockCodec``), whose
/// gap column may be sparse; format 3 (both 1.1) has every commit stamp its own id in
/// `meta` (``MetaTable/checkCommitStamp(format:in:path:)``), which older releases do not, so
/// they must not write it; format 4 (1.2) keeps each sample's source (``SourceTable``), the
/// rollups of a series of several sources holding their merged figures; format 5 (1.3)
/// keeps a change log (``SyncTable``), which every write of a release that syncs records in;
/// format 6 (1.4) may mark a series whose rows a priority change is rebuilding in batches
/// (``PriorityRebuild``), which older releases would read as done; format 7 (1.5) binds an
/// encrypted store's values and blinded keys to a random seal id of the store
/// (``StoreSeal``), which older releases cannot open; format 8 (1.6) lets samples carry ids
/// (``SampleID``), kept with their versions in the change log, which older releases would
/// not read; format 9 (1.7) stores a day's versions without the samples' identities when
/// they are the day's samples, which older releases would read as damage. This code writes
/// format 9 and reads all nine: a store of an older format opened writable is brought to
/// format 9 by recorded migrations (format 1's blocks in
/// batches, ``BlockLayoutMigration``; then ``CommitStampMigration``, ``SourcesMigration``,
/// ``ChangeLogMigration``, ``RowRebuildMigration``, in batches ``StoreSealMigration``, and
/// ``SampleIDMigration``, ``WholeDayVersionsMigration``); opened read-only it is read as it is. Stores written by
/// development builds before 1.0 recorded `format-version` (or, the earliest, only their
/// settings) and are refused with an error that says how to bring their samples over.
enum StorageFormat {
    /// The format new stores record, and the one a migration brings older stores to.
    static let current: UInt32 = 9
    /// The formats this code reads.
    static let readable: ClosedRange<UInt32> = 1...9
    /// The first format whose encrypted stores record a seal id.
    static let storeBoundSealing: UInt32 = 7
    /// The first format whose samples may carry ids.
    static let sampleIDs: UInt32 = 8
    /// The first format whose records of sample versions may name the day's samples without
    /// their identities.
    static let wholeDayVersions: UInt32 = 9
}
