import Foundation
import LMDB

/// The samples of a store: the series registry, the blocks of samples and their daily
/// rollups, in one LMDB environment.
///
/// Format 2 keeps samples in `blocks` (key `series ‖ smallest start`, about
/// ``targetBlockBytes`` each, ``BlockCodec``) and one rollup row per series
/// and UTC day in `days` (``RollupRowCodec``). A store written by format 1 keeps its
/// samples in `chunks` (one per UTC week, ``ChunkCodec``) and its rollups in `rollups`
/// (seven days per value) until the format migration has moved them; readers read both,
/// so the store answers the same at every step of that migration.
///
/// The storage layer: it knows nothing of the aggregates, caches or the façade above it.
/// Readers pass any transaction; the write path (``SeriesWriter``) is given a write
/// transaction by the caller, who owns the environment's write lock.
final class SampleStorage: Sendable {
    /// Format-1 chunks hold one series' samples starting within one fixed UTC week.
    static let defaultChunkWindow: Int64 = 7 * TimeGrid.day
    /// The size a block is cut to: four LMDB pages less the overflow page header, so
    /// blocks fill their pages (a value takes whole pages).
    static let targetBlockBytes = 4 * 4_096 - 16
    /// The most samples a block holds, however well they pack, unless more share one start.
    static let maximumBlockSamples = 32_768

    let meta: Database
    /// The series registry (``SeriesRecord`` values by name).
    let series: Database
    /// The name of ``series``' database.
    static let seriesName = "series"
    /// Format-2 sample blocks; `nil` only in a format-1 store opened read-only.
    let blocks: Database?
    /// Format-2 rollup rows, one per series and UTC day; `nil` like `blocks`.
    let days: Database?
    /// Hour summaries of the rollup rows (``HourSummaryCodec``); `nil` in a store opened
    /// read-only before migration 0005 created it. Read only once the migration finished:
    /// ``hourSummaries(in:)``.
    let hours: Database?
    /// Format-1 chunks not yet migrated.
    let chunks: Database
    /// Format-1 rollup blocks not yet migrated.
    let rollups: Database
    /// The chunk window of format-1 chunks, in milliseconds (recorded in `meta`).
    let chunkWindow: Int64
    /// The grid the rollups resolve: with ``RollupGrid/hour`` the store keeps in `days` the
    /// rows of each series' two newest days only (for writes), beside every hour summary.
    let rollupGrid: RollupGrid
    /// Where the hour summaries begin within UTC hours: ``HourPhase/utc`` except in a store
    /// of the hour grid created in a zone a half or a quarter of an hour off UTC.
    let hourPhase: HourPhase
    /// Blocks and chunks recently decoded by queries.
    let decodedChunks = DecodedChunkCache()

    /// Opens the sample databases of `environment`; `chunkWindow`, `rollupGrid` and
    /// `hourPhase` come from the store's settings.
    init(
        environment: Environment, meta: Database, chunkWindow: Int64, rollupGrid: RollupGrid,
        hourPhase: HourPhase
    ) throws {
        self.meta = meta
        series = try environment.openDatabase(named: Self.seriesName)
        blocks = try Self.openFormatTwo("blocks", in: environment)
        days = try Self.openFormatTwo("days", in: environment)
        hours = try Self.openFormatTwo("hours", in: environment)
        chunks = try environment.openDatabase(named: "chunks")
        rollups = try environment.openDatabase(named: "rollups")
        self.chunkWindow = chunkWindow
        self.rollupGrid = rollupGrid
        self.hourPhase = hourPhase
    }

    /// The start of the finest rollup cell holding `now` (a quarter-hour slot, or a summary
    /// hour in a store of the hour grid): rollups answer for time before it, raw samples
    /// for the part of that cell before `now`.
    func rollupCut(before now: Int64) -> Int64 {
        rollupGrid.keepsEveryRow
            ? now - now.floorModulo(TimeGrid.quarterHour) : hourPhase.hourStart(containing: now)
    }

    /// Opens a format-2 database; `nil` when a read-only handle finds a store that has not
    /// been migrated yet (it reads as empty).
    private static func openFormatTwo(_ name: String, in environment: Environment) throws
        -> Database?
    {
        do {
            return try environment.openDatabase(named: name)
        } catch let error as LMDBError where environment.options.readOnly && error.code == .notFound
        {
            return nil
        }
    }

    /// Calls `body(day, row)` for each rollup row of series `id`, in day order: a walk over
    /// every series' rows (they are keyed by day first).
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let days else { return }
        try txn.withCursor(days) { cursor in
            try cursor.forEach { key, value in
                if let parsed = StorageKey.parseDayRow(key), parsed.series == id {
                    try body(parsed.day, value)
                }
                return true
            }
        }
    }

    /// Every rollup row, by series and day, from one walk over the rows (a walk per series
    /// would cost the rows of every series for each one).
    func rowsBySeries<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [UInt32: [Int64: [UInt8]]]
    {
        guard let days else { return [:] }
        var rows: [UInt32: [Int64: [UInt8]]] = [:]
        try txn.withCursor(days) { cursor in
            try cursor.forEach { key, value in
                if let parsed = StorageKey.parseDayRow(key) {
                    rows[parsed.series, default: [:]][parsed.day] = Array(value)
                }
                return true
            }
        }
        return rows
    }

    /// The UTC days that have a rollup row of series `id`, in order.
    func rowDays<T: ReadableTransaction & ~Copyable>(series id: UInt32, in txn: borrowing T)
        throws -> [Int64]
    {
        var found: [Int64] = []
        try forEachRow(series: id, in: txn) { day, _ in found.append(day) }
        return found
    }

    /// The format-2 databases, for a write (a writable store always has them).
    func formatTwoDatabases() throws -> (blocks: Database, days: Database, hours: Database) {
        guard let blocks, let days, let hours else {
            throw StoreError.incompatibleFormat(
                "a store of an older format opened read-only cannot be written")
        }
        return (blocks, days, hours)
    }

    /// The hour summaries when every rollup row has one (migration 0005 finished), else `nil`:
    /// readers then add slots instead, with the same result.
    func hourSummaries<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> Database?
    {
        guard let hours else { return nil }
        return try Self.hourSummariesCompleteKey.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: meta) { _ in hours }
        }
    }

    /// Records that every rollup row has its hour summary (migration 0005's last step).
    func recordHourSummariesComplete(in txn: borrowing WriteTransaction) throws {
        try txn.put([1], forKey: Self.hourSummariesCompleteKey, in: meta)
    }

    private static let hourSummariesCompleteKey = Array("hour-summaries-complete".utf8)

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

    func createSeries(
        named name: String, unit: String, kind: SeriesKind, createdAt: Date,
        in txn: borrowing WriteTransaction
    ) throws -> SeriesRecord {
        let nextKey = Array("next-series-id".utf8)
        let next =
            try txn.value(forKey: nextKey, in: meta).map { bytes in
                bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
            } ?? 1
        let record = SeriesRecord(
            id: next, name: name, unit: unit, kind: kind, maximumDuration: 0,
            createdAt: createdAt.millisecondsSince1970)
        try saveSeriesRecord(record, in: txn)
        try txn.put(
            withUnsafeBytes(of: (next + 1).littleEndian, Array.init), forKey: nextKey, in: meta)
        return record
    }

    // MARK: Change counts

    /// How many committed writes have changed the samples of `record`: a counter in `meta`,
    /// raised in the transaction of each such write, so observers in any process can tell
    /// whether a series changed. 0 for a series no write changed since counting began.
    func changeCount<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, in txn: borrowing T
    ) throws -> UInt64 {
        try txn.value(forKey: Self.changeCountKey(record.id), in: meta).map { bytes in
            bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        } ?? 0
    }

    /// Raises the change count of `record` by one.
    func countChange(of record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        let next = try changeCount(of: record, in: txn) &+ 1
        try txn.put(
            withUnsafeBytes(of: next.littleEndian, Array.init),
            forKey: Self.changeCountKey(record.id), in: meta)
    }

    private static func changeCountKey(_ id: UInt32) -> [UInt8] {
        Array("changes/".utf8) + withUnsafeBytes(of: id.bigEndian, Array.init)
    }

    /// The store error for a piece of `record` that failed to decode.
    func chunkDamage(_ record: SeriesRecord, piece: StoredPiece, _ error: any Error) -> StoreError {
        .damagedChunk(
            series: record.name, windowStart: piece.lowerBound(chunkWindow: chunkWindow),
            reason: (error as? ChunkDamage)?.reason ?? "\(error)")
    }
}
