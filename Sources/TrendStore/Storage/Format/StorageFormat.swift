import LMDB

/// The on-disk format of a store, recorded in `meta` under `storage-format` (FORMAT.md).
///
/// TrendStore 1.0 writes and reads format 1. Stores written by development builds before
/// 1.0 recorded `format-version` (or, the earliest, only their settings) and are refused
/// with an error that says how to bring their samples over.
enum StorageFormat {
    /// The format new stores record, and the only one this code reads.
    static let current: UInt32 = 1
    private static let key = Array("storage-format".utf8)
    private static let gridKey = Array("rollup-grid".utf8)
    private static let phaseKey = Array("hour-phase-ms".utf8)
    private static let developmentKey = Array("format-version".utf8)
    /// Keys only stores of development builds hold (their settings without a format).
    private static let developmentSettingKeys = [Array("chunk-window-ms".utf8)]

    /// The recorded format, or `nil` for a store that records none.
    static func stored<T: ReadableTransaction & ~Copyable>(meta: Database, in txn: borrowing T)
        throws -> UInt32?
    {
        try txn.value(forKey: key, in: meta).map { bytes in
            guard bytes.count == 4 else {
                throw StoreError.incompatibleFormat(
                    "storage format of \(bytes.count) bytes in meta instead of 4")
            }
            return UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        }
    }

    /// The format a development build recorded, 1 for the earliest (which recorded
    /// none), or `nil` when `meta` holds nothing of a development build.
    static func developmentFormat<T: ReadableTransaction & ~Copyable>(
        meta: Database, in txn: borrowing T
    ) throws -> UInt32? {
        if let bytes = try txn.value(forKey: developmentKey, in: meta) {
            return bytes.count == 4
                ? UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                : 1
        }
        for settingKey in developmentSettingKeys
        where try txn.value(forKey: settingKey, in: meta) != nil {
            return 1
        }
        return nil
    }

    /// Records the format the store's data is in.
    static func record(_ version: UInt32, meta: Database, in txn: borrowing WriteTransaction)
        throws
    {
        try txn.put(withUnsafeBytes(of: version.littleEndian, Array.init), forKey: key, in: meta)
    }

    /// The name of the rollup grid `meta` records, or `nil`.
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
    /// begin, or `nil`.
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
