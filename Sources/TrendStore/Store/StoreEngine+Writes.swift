import Foundation
import LMDB

extension StoreEngine {
    /// Validates every part, then writes them all in one transaction, which also resolves
    /// each series (creating it with its unit when new) and checks its unit.
    func write(_ parts: [SeriesSamples]) throws -> [String: WriteSummary] {
        var batches: [(part: SeriesSamples, batch: SampleBatch)] = []
        for part in parts {
            var part = part
            part.series = try SeriesName.validated(part.series)
            part.source = try SourceName.validated(part.source ?? SourceName.defaultSource)
            batches.append((part, try SampleBatch(series: part.series, samples: part.samples)))
        }
        return try write { txn, zlib in
            var summary: [String: WriteSummary] = [:]
            var removedToday: [RemovedToday] = []
            let rows = RowWrites(storage: storage)
            for (part, batch) in batches {
                var record =
                    try storage.seriesRecord(named: part.series, in: txn)
                    ?? storage.createSeries(
                        named: part.series, unit: part.unit, kind: part.kind ?? .cumulative,
                        createdAt: clock(), in: txn)
                if record.unit != part.unit && !part.unitIsDefault {
                    throw StoreError.unitMismatch(
                        series: part.series, stored: record.unit, given: part.unit)
                }
                if let kind = part.kind, kind != record.kind {
                    throw StoreError.kindMismatch(
                        series: part.series, stored: record.kind, given: kind)
                }
                let source = part.source ?? SourceName.defaultSource
                var writer: SeriesWriter
                if source.isEmpty && !record.hasSources {
                    writer = SeriesWriter(storage: storage, record: record, zlib: zlib, rows: rows)
                } else {
                    let stream = try storage.stream(named: source, of: &record, in: txn)
                    try storage.noteDuration(
                        batch.maximumDuration, of: stream, series: &record, in: txn)
                    writer = SeriesWriter(
                        storage: storage, record: stream.record, zlib: zlib, rows: rows,
                        mergedSeries: record)
                }
                summary[part.series, default: WriteSummary()] += try writer.upsert(batch, in: txn)
                removedToday += try changed(record, try writer.finish(in: txn), in: txn)
            }
            try rows.flush(in: txn)
            try caches.rewrite(removedToday, now: clock(), queries: queries, in: txn)
            return summary
        }
    }

    /// Removes the samples of `name` whose start lies in `[from, to)`, of every source.
    func delete(series name: String, from: Int64, to: Int64) throws -> Int {
        try write { txn, zlib in
            let record = try storage.requireSeries(named: name, in: txn)
            let rows = RowWrites(storage: storage)
            var removed = 0
            var removedToday: [RemovedToday] = []
            for stream in try storage.streams(of: record, in: txn) {
                var writer = SeriesWriter(
                    storage: storage, record: stream.record, zlib: zlib, rows: rows,
                    mergedSeries: record.hasSources ? record : nil)
                removed += try writer.delete(from: from, to: to, in: txn)
                removedToday += try changed(record, try writer.finish(in: txn), in: txn)
            }
            try rows.flush(in: txn)
            try caches.rewrite(removedToday, now: clock(), queries: queries, in: txn)
            return removed
        }
    }

    /// Removes a series with all its blocks, rollup rows and hour summaries.
    func deleteSeries(named name: String) throws {
        try write { txn, _ in
            let record = try storage.requireSeries(named: name, in: txn)
            try storage.removeSeries(record, in: txn)
            _ = try caches.removeAll(of: record.name, in: txn)
            try storage.countChange(of: record, in: txn)
        }
    }

    /// What follows a change of `record`'s samples in `range`, in the same transaction:
    /// the cached aggregates computed from those instants are invalidated, and the series'
    /// change count, which observers watch, is raised.
    ///
    /// - Returns: The today caches removed, which the write computes again once its rollup
    ///   rows are flushed (``AggregateCache/rewrite(_:now:queries:in:)``).
    private func changed(
        _ record: SeriesRecord, _ range: Range<Int64>?, in txn: borrowing WriteTransaction
    ) throws -> [RemovedToday] {
        guard let range else { return [] }
        let removed = try caches.invalidate(series: record.name, touching: range, in: txn)
        try storage.countChange(of: record, in: txn)
        return removed
    }

    /// Stores one cached payload of the current schema in its own write transaction.
    func storePayload(
        _ kind: AggregatePayload.Kind, body: [UInt8], forKey key: String, computedAt: Date,
        window: Range<Int64> = 0..<0, imported: Bool
    ) throws {
        let payload = AggregatePayload(
            kind: kind, schemaVersion: UInt8(SchemaKey.currentVersion), imported: imported,
            computedAt: computedAt.millisecondsSince1970, window: window, body: body)
        try write { txn, _ in try caches.putPayload(payload, forKey: key, in: txn) }
    }
}
