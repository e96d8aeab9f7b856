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
    /// The size past which the newest block stops taking small appends: they begin a tail
    /// block that LMDB keeps inside a leaf page (a value of up to about 2,000 bytes beside
    /// its key; a sealed block is 29 bytes longer), later folded into the block before it.
    static let tailBlockBytes = 1_536
    /// The samples past which the newest block stops taking small appends, however few
    /// bytes they take (a commit re-encodes every sample of the block it rewrites).
    static let tailBlockSamples = 512
    /// The most samples a block holds, however well they pack, unless more share one start.
    static let maximumBlockSamples = 32_768

    /// Settings, migrations, series ids and change counts.
    let meta: MetaTable
    /// The series registry (``SeriesRecord`` values by name).
    let series: SeriesTable
    /// Sample blocks, by series and smallest start.
    let blocks: BlockTable
    /// Rollup rows, one per series and UTC day.
    let days: DayRowTable
    /// Hour summaries of the rollup rows (``HourSummaryCodec``).
    let hours: HourSummaryTable
    /// Sources and priority orders (`nil` in a store of an earlier format opened read-only).
    let sources: SourceTable?
    /// The change log (`nil` in a store of a format before 5 opened read-only).
    let sync: SyncTable?
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
    /// The sources of the series read lately, by the snapshot they were read in.
    let sourceStreams = SourceStreamsCache()

    /// The samples of the store whose tables are `tables`; `rollupGrid` and `hourPhase`
    /// come from the store's settings.
    init(
        tables: StoreTables, rollupGrid: RollupGrid, hourPhase: HourPhase,
        readsHourSummaries: Bool = true
    ) {
        meta = tables.meta
        series = tables.series
        blocks = tables.blocks
        days = tables.days
        hours = tables.hours
        sources = tables.sources
        sync = tables.sync
        self.rollupGrid = rollupGrid
        self.hourPhase = hourPhase
        self.readsHourSummaries = readsHourSummaries || !rollupGrid.keepsEveryRow
    }

    // MARK: Series registry

    /// The record of `name` (normalised to NFC), or `nil`.
    func seriesRecord<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> SeriesRecord?
    {
        try series.record(named: SeriesName.normalized(name), in: txn)
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

    /// Every series' record, in name order.
    func allSeriesRecords<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesRecord]
    {
        try series.allRecords(in: txn)
    }

    /// Stores `record` (its longest sample changed).
    func saveSeriesRecord(_ record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        try series.put(record, in: txn)
    }

    /// Registers a new series under the next id.
    func createSeries(
        named name: String, unit: String, kind: SeriesKind, createdAt: Date,
        in txn: borrowing WriteTransaction
    ) throws -> SeriesRecord {
        let next = try meta.nextSeriesID(in: txn)
        let record = SeriesRecord(
            id: next, name: name, unit: unit, kind: kind, maximumDuration: 0,
            createdAt: createdAt.millisecondsSince1970)
        try saveSeriesRecord(record, in: txn)
        try meta.setNextSeriesID(next &+ 1, in: txn)
        return record
    }

    /// Removes every block, rollup row and hour summary of `record` and its registry entry;
    /// its change count stays, so observers see the removal.
    func removeSeries(_ record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        for day in try rowDays(series: record.id, in: txn) {
            try days.delete(series: record.id, day: day, in: txn)
        }
        if record.hasSources, let sources {
            for source in try sources.sources(of: record.id, in: txn) {
                try blocks.removeAll(series: source.streamID, in: txn)
            }
            try sources.removeAll(of: record.id, in: txn)
        }
        try blocks.removeAll(series: record.id, in: txn)
        try hours.removeAll(series: record.id, in: txn)
        try series.remove(named: record.name, in: txn)
    }

    // MARK: Change counts

    /// How many committed writes have changed the samples of `record`: a counter in `meta`,
    /// raised in the transaction of each such write, so observers in any process can tell
    /// whether a series changed. 0 for a series no write changed since counting began.
    func changeCount<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, in txn: borrowing T
    ) throws -> UInt64 {
        try meta.changeCount(ofSeries: record.id, in: txn)
    }

    /// Raises the change count of `record` by one.
    func countChange(of record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        try meta.setChangeCount(
            try changeCount(of: record, in: txn) &+ 1, ofSeries: record.id, in: txn)
    }
}
