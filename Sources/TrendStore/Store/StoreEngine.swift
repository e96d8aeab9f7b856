import Foundation
import LMDB
import Synchronization

/// The synchronous core of a store: the LMDB environment, its databases and the series registry.
///
/// ``TrendStore`` wraps it for host apps. Reads run on any thread in their own read
/// transaction; writes are serialised by `writer`, which also owns the write path's
/// reusable zlib stream.
final class StoreEngine: Sendable {
    /// The on-disk format this code writes and reads.
    static let formatVersion: UInt32 = 1
    /// Chunks hold one series' samples starting within one fixed UTC week.
    static let defaultChunkWindow: Int64 = 7 * TimeGrid.day

    let environment: Environment
    let meta: Database
    let series: Database
    let chunks: Database
    let rollups: Database
    /// Cached aggregates under versioned keys (``SchemaKey``).
    let aggregates: Database
    /// Typed key-value caches of host apps, by namespace.
    let keyValues: Database
    /// The chunk window of this store, in milliseconds (recorded in `meta`).
    let chunkWindow: Int64
    /// The zone local-day figures of this handle use by default: the zone it was opened
    /// with, else the store's recorded default.
    let timeZone: TimeZone
    /// The default zone the store records (changed only by ``setStoredTimeZone(_:)``).
    var storedTimeZone: TimeZone { storedZone.withLock { $0 } }
    private let storedZone: Mutex<TimeZone>
    /// The directory holding the store.
    let directory: URL
    /// The clock cache freshness and migrations read (injectable for tests).
    let clock: @Sendable () -> Date
    private let writer: Mutex<ZlibCodec>
    /// What the caches have met since the store was opened.
    let cacheCounters = Mutex(CacheStatistics())
    /// Chunks recently decoded by queries.
    let decodedChunks = DecodedChunkCache()

    init(directory: URL, options: StoreOptions) throws {
        if !options.readOnly {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.storeUnavailable(
                    path: directory.path,
                    reason: "cannot create the directory: \(Self.systemReason(error))")
            }
        }
        var envOptions = Environment.Options()
        envOptions.mapSize = options.initialMapSize
        envOptions.readOnly = options.readOnly
        envOptions.durableCommits = options.durableCommits
        let environment = try Environment(path: directory.path, options: envOptions)
        self.environment = environment
        self.directory = directory
        meta = try environment.openDatabase(named: "meta")
        series = try environment.openDatabase(named: "series")
        chunks = try environment.openDatabase(named: "chunks")
        rollups = try environment.openDatabase(named: "rollups")
        aggregates = try environment.openDatabase(named: "aggregates")
        keyValues = try environment.openDatabase(named: "key-values")
        writer = Mutex(ZlibCodec(level: 1))
        clock = options.clock
        let settings = try StoreSettings.load(
            environment: environment, meta: meta, newStoreZone: options.timeZone,
            defaultWindow: Self.defaultChunkWindow, formatVersion: Self.formatVersion)
        chunkWindow = settings.chunkWindow
        storedZone = Mutex(settings.storedTimeZone)
        timeZone = options.timeZone ?? settings.storedTimeZone
        if !options.readOnly { try Migrator.run(self) }
    }

    /// The operating system's words for a Foundation file error ("Permission denied").
    private static func systemReason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error,
            case let posix = underlying as NSError, posix.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }

    /// Runs a write transaction with the write path's zlib stream, one writer at a time.
    func write<R: Sendable>(_ body: (borrowing WriteTransaction, ZlibCodec) throws -> R) throws -> R
    {
        try writer.withLock { zlib in
            try environment.write { txn in try body(txn, zlib) }
        }
    }

    /// Records `zone` as the store's default zone.
    func setStoredTimeZone(_ zone: TimeZone) throws {
        try write { txn, _ in
            try txn.put(Array(zone.identifier.utf8), forKey: StoreSettings.zoneKey, in: meta)
        }
        storedZone.withLock { $0 = zone }
    }

    /// Runs a read transaction.
    func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try environment.read(body)
    }

    // MARK: Series registry

    func seriesRecord<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> SeriesRecord?
    {
        let name = SeriesName.normalized(name)
        let key = Array(name.utf8)
        return try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: series) { SeriesRecord(name: name, bytes: $0) }
        } ?? nil
    }

    /// The record of `name`, or `StoreError.unknownSeries`.
    func requireSeries<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> SeriesRecord
    {
        guard let record = try seriesRecord(named: name, in: txn) else {
            let known = try allSeriesRecords(in: txn).map(\.name)
            throw StoreError.unknownSeries(
                name, closest: SeriesName.closest(to: name, among: known))
        }
        return record
    }

    func allSeriesRecords<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesRecord]
    {
        try txn.withCursor(series) { cursor in
            var records: [SeriesRecord] = []
            try cursor.forEach { key, value in
                let name = String(decoding: key, as: UTF8.self)
                if let record = SeriesRecord(name: name, bytes: value) { records.append(record) }
                return true
            }
            return records
        }
    }

    func saveSeriesRecord(_ record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        try txn.put(record.encoded(), forKey: Array(record.name.utf8), in: series)
    }

    func createSeries(named name: String, unit: String, in txn: borrowing WriteTransaction) throws
        -> SeriesRecord
    {
        let nextKey = Array("next-series-id".utf8)
        let next =
            try txn.value(forKey: nextKey, in: meta).map { bytes in
                bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
            } ?? 1
        let record = SeriesRecord(
            id: next, name: name, unit: unit, maximumDuration: 0, createdAt: Milliseconds(Date()))
        try saveSeriesRecord(record, in: txn)
        try txn.put(
            withUnsafeBytes(of: (next + 1).littleEndian, Array.init), forKey: nextKey, in: meta)
        return record
    }

    /// The store error for a chunk of `record` that failed to decode.
    func chunkDamage(_ record: SeriesRecord, window: Int64, _ error: any Error) -> StoreError {
        .damagedChunk(
            series: record.name, windowStart: window * chunkWindow,
            reason: (error as? ChunkCodec.Damage)?.reason ?? "\(error)")
    }

    // MARK: Keys and windows

    @inline(__always)
    func windowIndex(of instant: Int64) -> Int64 { instant.floorDivided(by: chunkWindow) }

    /// The chunk windows of `series` that exist in `lower...upper`, in order.
    func existingWindows<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, from lower: Int64, through upper: Int64, in txn: borrowing T
    ) throws -> [Int64] {
        try indices(in: chunks, series: id, from: lower, through: upper, txn: txn)
    }

    /// The indices of `database`'s keys for series `id` within `lower...upper`.
    func indices<T: ReadableTransaction & ~Copyable>(
        in database: Database, series id: UInt32, from lower: Int64, through upper: Int64,
        txn: borrowing T
    ) throws -> [Int64] {
        guard lower <= upper else { return [] }
        return try txn.withCursor(database) { cursor in
            var found: [Int64] = []
            try cursor.forEach(from: StorageKey.make(series: id, index: lower)) { key, _ in
                guard let parsed = StorageKey.parse(key), parsed.series == id, parsed.index <= upper
                else { return false }
                found.append(parsed.index)
                return true
            }
            return found
        }
    }

    /// Decodes the chunk of `window`, appending its samples; `false` when there is none.
    func decodeChunk<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, window: Int64, zlib: ZlibCodec, in txn: borrowing T,
        appendingTo samples: inout [Sample]
    ) throws -> Bool {
        let key = StorageKey.make(series: record.id, index: window)
        let found: Bool? = try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: chunks) { bytes in
                do {
                    try ChunkCodec.decode(bytes, zlib: zlib, appendingTo: &samples)
                } catch {
                    throw chunkDamage(record, window: window, error)
                }
                return true
            }
        }
        return found ?? false
    }
}
