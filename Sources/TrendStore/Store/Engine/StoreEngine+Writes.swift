import Foundation
import LMDB

extension StoreEngine {
    /// Validates every series' samples, then writes them all in one transaction, which also removes
    /// the samples `deletedIDs` names (series → ids) first, resolves each series (creating
    /// it with its unit when new) and checks its unit, records in the change log what it
    /// changed, and stores `externalAnchors` (name → bytes) beside them.
    func write(
        _ entries: [SeriesSamples], deletedIDs: [String: [SampleID]] = [:],
        externalAnchors: [String: [UInt8]] = [:]
    ) throws -> [String: WriteSummary] {
        var batches: [(entry: SeriesSamples, batch: SampleBatch, ids: [Identity: SampleID]?)] = []
        for entry in entries {
            var entry = entry
            entry.series = try SeriesName.validated(entry.series)
            entry.source = try SourceName.validated(entry.source ?? SourceName.defaultSource)
            batches.append(
                (
                    entry, try SampleBatch(series: entry.series, samples: entry.samples),
                    try Self.idsByIdentity(of: entry)
                ))
        }
        return try write { txn, zlib in
            var summary: [String: WriteSummary] = [:]
            var removedToday: [RemovedToday] = []
            var log = try changeRecorder(zlib: zlib, in: txn)
            let rows = RowWrites(storage: storage)
            for (series, ids) in deletedIDs.sorted(by: { $0.key < $1.key }) {
                let removal = try removeSamples(
                    withIDs: ids, from: series, log: &log, rows: rows, zlib: zlib, in: txn)
                summary[series, default: WriteSummary()].removed += removal.removed
                removedToday += removal.removedToday
            }
            for (entry, batch, ids) in batches {
                let existing = try storage.seriesRecord(named: entry.series, in: txn)
                var record =
                    try existing
                    ?? storage.createSeries(
                        named: entry.series, unit: entry.unit, kind: entry.kind ?? .cumulative,
                        createdAt: clock(), in: txn)
                if record.unit != entry.unit && !entry.unitIsDefault {
                    throw StoreError.unitMismatch(
                        series: entry.series, stored: record.unit, given: entry.unit)
                }
                if let kind = entry.kind, kind != record.kind {
                    throw StoreError.kindMismatch(
                        series: entry.series, stored: record.kind, given: kind)
                }
                if ids != nil && !record.keepsSampleIDs {
                    record.keepsSampleIDs = true
                    try storage.saveSeriesRecord(record, in: txn)
                }
                var writer = try writer(
                    for: entry.source ?? SourceName.defaultSource, of: &record,
                    longest: batch.maximumDuration, zlib: zlib, rows: rows, in: txn)
                writer.written = []
                writer.written?.reserveCapacity(batch.samples.count)
                summary[entry.series, default: WriteSummary()] += try writer.upsert(batch, in: txn)
                if record.keepsSampleIDs && !batch.samples.isEmpty {
                    // Every sample records its id, or that it has none, changed or not.
                    try noteSampleIDs(
                        ids ?? [:], of: batch.samples, series: record.id,
                        stream: writer.record, log: &log, in: txn)
                } else if let written = writer.written, !written.isEmpty {
                    log.noteWritten(written, stream: writer.record, version: log.local())
                } else if existing == nil {
                    log.noteDeclared(stream: writer.record.id)
                }
                removedToday += try changed(record, try writer.finish(in: txn), in: txn)
            }
            try finishWrite(
                log, rows: rows, removedToday: removedToday, externalAnchors: externalAnchors,
                in: txn)
            return summary
        }
    }

    /// Removes the samples of `name` whose start lies in `[from, to)`, of every source, and
    /// records the deletion in the change log.
    func delete(series name: String, from: Int64, to: Int64) throws -> Int {
        try write { txn, zlib in
            let record = try storage.requireSeries(named: name, in: txn)
            var log = try changeRecorder(zlib: zlib, in: txn)
            if from < to {
                log.noteDeletion(
                    SampleDeletion(
                        series: record.name, source: nil, range: from..<to, removesSeries: false,
                        version: log.local()))
            }
            let rows = RowWrites(storage: storage)
            var removed = 0
            var removedToday: [RemovedToday] = []
            for stream in try storage.streams(of: record, in: txn) {
                if from < to {
                    try listWholeDayVersions(
                        of: stream.record, starts: from..<to, zlib: zlib, in: txn)
                }
                var writer = SeriesWriter(
                    storage: storage, record: stream.record, zlib: zlib, rows: rows,
                    mergedSeries: record.hasSources ? record : nil)
                removed += try writer.delete(from: from, to: to, in: txn)
                removedToday += try changed(record, try writer.finish(in: txn), in: txn)
            }
            try finishWrite(log, rows: rows, removedToday: removedToday, in: txn)
            return removed
        }
    }

    /// Removes a series with all its blocks, rollup rows and hour summaries, and records the
    /// deletion in the change log.
    func deleteSeries(named name: String) throws {
        try write { txn, zlib in
            let record = try storage.requireSeries(named: name, in: txn)
            var log = try changeRecorder(zlib: zlib, in: txn)
            log.noteDeletion(
                SampleDeletion(
                    series: record.name, source: nil, range: Int64.min..<Int64.max,
                    removesSeries: true, version: log.local()))
            // The series' priority order goes with it, also where newer samples keep it.
            log.notePriority(PriorityChange(series: record.name, order: [], version: log.local()))
            try forgetVersions(of: record, in: txn)
            try commit(log, in: txn)
            try storage.removeSeries(record, in: txn)
            _ = try caches.removeAll(of: record.name, in: txn)
            try storage.countChange(of: record, in: txn)
        }
    }

    /// The writer of source `source` (NFC) of `record`, for samples at most `longest` ms
    /// long: the series' own for its default source while it has no other, else the
    /// source's stream (created when new; `record` is updated in place) writing merged rows.
    func writer(
        for source: String, of record: inout SeriesRecord, longest: Int64, zlib: ZlibCodec,
        rows: RowWrites, in txn: borrowing WriteTransaction
    ) throws -> SeriesWriter {
        if source.isEmpty && !record.hasSources {
            return SeriesWriter(storage: storage, record: record, zlib: zlib, rows: rows)
        }
        let stream = try storage.stream(named: source, of: &record, in: txn)
        try storage.noteDuration(longest, of: stream, series: &record, in: txn)
        return SeriesWriter(
            storage: storage, record: stream.record, zlib: zlib, rows: rows, mergedSeries: record)
    }

    /// What follows a change of `record`'s samples in `range`, in the same transaction:
    /// the cached aggregates computed from those instants are invalidated, and the series'
    /// change count, which observers watch, is raised.
    ///
    /// - Returns: The today caches removed, which the write computes again once its rollup
    ///   rows are flushed (``AggregateCache/rewrite(_:now:queries:in:)``).
    func changed(
        _ record: SeriesRecord, _ range: Range<Int64>?, in txn: borrowing WriteTransaction
    ) throws -> [RemovedToday] {
        guard let range else { return [] }
        let removed = try caches.invalidate(series: record.name, touching: range, in: txn)
        try storage.countChange(of: record, in: txn)
        return removed
    }
}
