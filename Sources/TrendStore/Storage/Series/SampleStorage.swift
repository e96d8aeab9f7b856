import Foundation
import LMDB

/// The samples of a store: the series registry, the blocks of samples, their daily
/// rollup rows and hour summaries, in one LMDB environment (FORMAT.md).
///
/// Samples live in `blocks` (key `series ‖ smallest start`, about ``targetBlockBytes``
/// each, ``BlockCodec``), one rollup row per series and UTC day in `days`
/// (``RollupRowCodec``) and one summary per series and summary hour in `hours`
/// (``HourSummaryCodec``).
///
/// The storage layer: it knows nothing of the aggregates, caches or the façade above it.
/// Readers pass any transaction; the write path (``SeriesWriter``) is given a write
/// transaction by the caller, who owns the environment's write lock.
final class SampleStorage: Sendable {
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
    /// Sample blocks, by series and smallest start.
    let blocks: Database
    /// Rollup rows, one per series and UTC day.
    let days: Database
    /// Hour summaries of the rollup rows (``HourSummaryCodec``).
    let hours: Database
    /// The grid the rollups resolve: with ``RollupGrid/hour`` the store keeps in `days` the
    /// rows of each series' two newest days only (for writes), beside every hour summary.
    let rollupGrid: RollupGrid
    /// Where the hour summaries begin within UTC hours: ``HourPhase/utc`` except in a store
    /// of the hour grid created in a zone a half or a quarter of an hour off UTC.
    let hourPhase: HourPhase
    /// Whether queries read whole summary hours from `hours` (else from the slots of a
    /// store that keeps every row: the same bits).
    let readsHourSummaries: Bool
    /// Blocks recently decoded by queries.
    let decodedBlocks = DecodedBlockCache()

    /// Opens the sample databases of `environment`; `rollupGrid` and `hourPhase` come from
    /// the store's settings.
    init(
        environment: Environment, meta: Database, rollupGrid: RollupGrid, hourPhase: HourPhase,
        readsHourSummaries: Bool = true
    ) throws {
        self.meta = meta
        series = try environment.openDatabase(named: Self.seriesName)
        blocks = try environment.openDatabase(named: "blocks")
        days = try environment.openDatabase(named: "days")
        hours = try environment.openDatabase(named: "hours")
        self.rollupGrid = rollupGrid
        self.hourPhase = hourPhase
        self.readsHourSummaries = readsHourSummaries || !rollupGrid.keepsEveryRow
    }

    /// The start of the finest rollup cell holding `now` (a quarter-hour slot, or a summary
    /// hour in a store of the hour grid): rollups answer for time before it, raw samples
    /// for the part of that cell before `now`.
    func rollupCut(before now: Int64) -> Int64 {
        rollupGrid.keepsEveryRow
            ? now - now.floorModulo(TimeGrid.quarterHour) : hourPhase.hourStart(containing: now)
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

    /// Removes every block, rollup row and hour summary of `record`; its registry entry
    /// and change count stay for the caller to settle.
    func removeStoredData(of record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        for day in try rowDays(series: record.id, in: txn) {
            try txn.delete(forKey: StorageKey.dayRowKey(series: record.id, day: day), in: days)
        }
        for database in [blocks, hours] {
            var keys: [[UInt8]] = []
            try txn.withCursor(database) { cursor in
                try cursor.forEach(from: StorageKey.make(series: record.id, index: .min)) {
                    key, _ in
                    guard StorageKey.parse(key)?.series == record.id else { return false }
                    keys.append(Array(key))
                    return true
                }
            }
            for key in keys { try txn.delete(forKey: key, in: database) }
        }
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
}
