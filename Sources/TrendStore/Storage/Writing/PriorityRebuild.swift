import LMDB

/// The rebuild of a series' rows after its priority order changed (format 6), a batch of
/// days per write transaction so no transaction holds the writer lock for long.
///
/// ``begin(_:in:)`` marks the days of the series' samples as left to rebuild
/// (``SourceTable/pendingRebuild(of:in:)``) and the series as rebuilding
/// (``SeriesRecord/rebuildsRows``), in the transaction that stores the new order: from
/// that commit on, queries of the series read its samples, merged under the new order,
/// instead of its rows. Each ``step(series:daysPerBatch:zlib:in:)`` rebuilds the next batch
/// and moves the mark on; the last one removes it and the series reads its rows again. A
/// kill between batches leaves a mark the next writable open continues from.
struct PriorityRebuild {
    let storage: SampleStorage

    /// How many days one transaction rebuilds.
    static let daysPerBatch = 128

    /// Marks every day `record`'s samples touch as left to rebuild and `record` (saved) as
    /// rebuilding, in `txn`.
    ///
    /// - Returns: The instants whose figures the new order may change (whole UTC days);
    ///   `nil` when the series holds no samples (its rows are then already right).
    func begin(_ record: inout SeriesRecord, in txn: borrowing WriteTransaction) throws
        -> Range<Int64>?
    {
        guard let sources = storage.sources else {
            throw StoreError.incompatibleFormat("the store has no table of sources")
        }
        var span = StreamSpan()
        for stream in try storage.streams(of: record, in: txn) {
            span.add(try storage.span(of: stream.record, in: txn))
        }
        guard span.count > 0 else { return nil }
        let firstDay = span.first.floorDivided(by: TimeGrid.day)
        let lastDay = max(span.first, span.last - 1).floorDivided(by: TimeGrid.day)
        try sources.setPendingRebuild(firstDay..<(lastDay + 1), of: record.id, in: txn)
        if !record.rebuildsRows {
            record.rebuildsRows = true
            try storage.saveSeriesRecord(record, in: txn)
        }
        return (firstDay * TimeGrid.day)..<((lastDay + 1) * TimeGrid.day)
    }

    /// Rebuilds the rows of the next `daysPerBatch` days left to rebuild of series `name`
    /// from its merged samples, in `txn`, and ends the rebuild after its last day.
    ///
    /// - Returns: Whether the series has nothing left to rebuild (also when it is gone).
    func step(
        series name: String, daysPerBatch: Int, zlib: ZlibCodec,
        in txn: borrowing WriteTransaction
    ) throws -> Bool {
        guard var record = try storage.seriesRecord(named: name, in: txn),
            let sources = storage.sources
        else { return true }
        guard let days = try sources.pendingRebuild(of: record.id, in: txn) else {
            if record.rebuildsRows {
                record.rebuildsRows = false
                try storage.saveSeriesRecord(record, in: txn)
            }
            return true
        }
        let batch = days.lowerBound..<min(days.upperBound, days.lowerBound + Int64(daysPerBatch))
        if !batch.isEmpty {
            let rows = RowWrites(storage: storage)
            var own = record
            own.hasSources = false
            var writer = SeriesWriter(
                storage: storage, record: own, zlib: zlib, rows: rows, mergedSeries: record)
            try writer.rebuildRows(ofDays: batch, in: txn)
            try rows.flush(in: txn)
        }
        guard batch.upperBound == days.upperBound else {
            try sources.setPendingRebuild(
                batch.upperBound..<days.upperBound, of: record.id, in: txn)
            return false
        }
        try sources.setPendingRebuild(nil, of: record.id, in: txn)
        record.rebuildsRows = false
        try storage.saveSeriesRecord(record, in: txn)
        return true
    }

    /// The names of the series with a rebuild under way (none in a store before format 6).
    func seriesWithPendingRebuilds<T: ReadableTransaction & ~Copyable>(in txn: borrowing T)
        throws -> [String]
    {
        guard let sources = storage.sources else { return [] }
        let ids = Set(try sources.seriesWithPendingRebuilds(in: txn))
        guard !ids.isEmpty else { return [] }
        return try storage.allSeriesRecords(in: txn).filter { ids.contains($0.id) }.map(\.name)
    }
}
