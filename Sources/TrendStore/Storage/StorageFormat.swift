import LMDB

/// The storage format a store's data is in, recorded in `meta`: 1 for stores written
/// before blocks (``ChunkCodec``), 2 once the format migration has run (``BlockCodec``),
/// 3 once every series record states its kind (``SeriesRecord``; discrete series' rollup
/// rows carry minimum, maximum and latest sample, ``RollupRowCodec``), 4 once migration
/// 0005 began building hour summaries (``HourSummaryCodec``; code that does not keep
/// them up to date must not write the store from then on), 5 once rollup rows may be
/// checked by CRC-32C (``RollupRowCodec`` row version 3, migration 0006), 6 once
/// cumulative rows may be of version 4 (``CompactRowCodec``, migration 0007), 7 for a
/// store created with ``RollupGrid/hour``: format 6 with the rollup rows of each series' two
/// newest days only, beside every hour summary, 8 once blocks may bit-pack their columns
/// (``BlockCodec`` format 3, migration 0008), 9 once `meta` records where the hour summaries
/// begin within UTC hours (``HourPhase``, ``storedHourPhase(meta:in:)``; migration 0009
/// records UTC hours for older stores). From format 7 on, `meta` records the store's rollup
/// grid (``storedGrid(meta:in:)``); before it, every store has quarter-hour rows.
enum StorageFormat {
    /// The formats this code reads.
    static let readable: ClosedRange<UInt32> = 1...9
    /// The format new stores record, and migration 0009 raises older stores to.
    static let current: UInt32 = 9
    /// The first format that records its hour phase in `meta`.
    static let recordsHourPhase: UInt32 = 9
    /// The first format whose blocks may be of ``BlockCodec/packedVersion``.
    static let packedBlocks: UInt32 = 8
    /// The first format that records its rollup grid in `meta`.
    static let recordsGrid: UInt32 = 7
    private static let key = Array("format-version".utf8)
    private static let gridKey = Array("rollup-grid".utf8)
    private static let phaseKey = Array("hour-phase-ms".utf8)

    /// The recorded format, or `nil` for a new store.
    static func stored<T: ReadableTransaction & ~Copyable>(meta: Database, in txn: borrowing T)
        throws -> UInt32?
    {
        try txn.value(forKey: key, in: meta).map {
            UInt32(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        }
    }

    /// Records `version` unless the store already records it or a later one (a migration's
    /// batches may run again after a crash).
    static func raise(to version: UInt32, meta: Database, in txn: borrowing WriteTransaction)
        throws
    {
        if try stored(meta: meta, in: txn) ?? 1 < version {
            try record(version, meta: meta, in: txn)
        }
    }

    /// Records the format the store's data is in.
    static func record(_ version: UInt32, meta: Database, in txn: borrowing WriteTransaction)
        throws
    {
        try txn.put(withUnsafeBytes(of: version.littleEndian, Array.init), forKey: key, in: meta)
    }

    /// The name of the rollup grid `meta` records, or `nil` (formats before 7 record none).
    static func storedGrid<T: ReadableTransaction & ~Copyable>(meta: Database, in txn: borrowing T)
        throws -> String?
    {
        try txn.value(forKey: gridKey, in: meta).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Records the store's rollup grid.
    static func recordGrid(_ grid: RollupGrid, meta: Database, in txn: borrowing WriteTransaction)
        throws
    {
        try txn.put(Array(grid.rawValue.utf8), forKey: gridKey, in: meta)
    }

    /// The milliseconds after each UTC hour at which `meta` records the hour summaries
    /// begin, or `nil` (formats before 9 record none: their summaries are of UTC hours).
    static func storedHourPhase<T: ReadableTransaction & ~Copyable>(
        meta: Database, in txn: borrowing T
    ) throws -> Int64? {
        try txn.value(forKey: phaseKey, in: meta).map { bytes in
            guard bytes.count == 8 else {
                throw StoreError.incompatibleFormat(
                    "hour phase of \(bytes.count) bytes in meta instead of 8")
            }
            return Int64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
        }
    }

    /// Records where the store's hour summaries begin within UTC hours.
    static func recordHourPhase(
        _ phase: HourPhase, meta: Database, in txn: borrowing WriteTransaction
    ) throws {
        try txn.put(
            withUnsafeBytes(of: phase.offset.littleEndian, Array.init), forKey: phaseKey, in: meta)
    }
}
