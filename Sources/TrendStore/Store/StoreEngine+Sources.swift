import Foundation
import LMDB

extension StoreEngine {
    /// The sources of `name` in its priority order, with their counts and spans: every source
    /// that holds samples, and the default source when the series has no other.
    func sources<T: ReadableTransaction & ~Copyable>(of name: String, in txn: borrowing T) throws
        -> [SourceInfo]
    {
        let record = try storage.requireSeries(named: name, in: txn)
        let streams = try storage.streams(of: record, in: txn)
        var infos: [SourceInfo] = []
        for (index, stream) in streams.enumerated() {
            let span = try storage.span(of: stream.record, in: txn)
            guard span.count > 0 || streams.count == 1 else { continue }
            infos.append(
                SourceInfo(
                    name: stream.name, rank: index + 1, sampleCount: span.count,
                    firstStart: span.firstStart, lastEnd: span.lastEnd))
        }
        return infos
    }

    /// The stream of source `source` of `name`, for one source's samples or figures.
    func stream<T: ReadableTransaction & ~Copyable>(
        of name: String, source: String, in txn: borrowing T
    ) throws -> SourceStream {
        try storage.stream(
            of: try storage.requireSeries(named: name, in: txn), named: source, in: txn)
    }

    /// Sets the priority order of `name`'s sources and rebuilds its rows from the merged
    /// view under the new order, in one transaction: the order and the figures change
    /// together. The series' cached aggregates are invalidated and its observers woken.
    func setSourcePriority(_ order: [String], of name: String) throws {
        let names = try order.map { try SourceName.validated($0) }
        var seen = Set<String>()
        for source in names where !seen.insert(source).inserted {
            throw StoreError.invalidArgument(
                .source, reason: "source \"\(SourceName.display(source))\" is named twice")
        }
        try write { txn, zlib in
            let record = try storage.requireSeries(named: name, in: txn)
            var log = try changeRecorder(zlib: zlib, in: txn)
            log.notePriority(
                PriorityChange(series: record.name, order: names, version: log.local()))
            try setPriority(names, of: record, zlib: zlib, in: txn)
            try commit(log, in: txn)
        }
    }

    /// Stores `names` (valid, NFC) as the priority order of `record` and rebuilds its rows
    /// from the merged view under it, in `txn`; invalidates its cached aggregates and wakes
    /// its observers.
    func setPriority(
        _ names: [String], of record: SeriesRecord, zlib: ZlibCodec,
        in txn: borrowing WriteTransaction
    ) throws {
        var record = record
        guard let sources = storage.sources else {
            throw StoreError.incompatibleFormat("the store has no table of sources")
        }
        try sources.setPriority(names, of: record.id, in: txn)
        guard record.hasSources || !names.isEmpty else { return }
        if !record.hasSources {
            record.hasSources = true
            try storage.saveSeriesRecord(record, in: txn)
        }
        var span = StreamSpan()
        for stream in try storage.streams(of: record, in: txn) {
            span.add(try storage.span(of: stream.record, in: txn))
        }
        guard span.count > 0 else { return }
        let rows = RowWrites(storage: storage)
        var own = record
        own.hasSources = false
        var writer = SeriesWriter(
            storage: storage, record: own, zlib: zlib, rows: rows, mergedSeries: record)
        let firstDay = span.first.floorDivided(by: TimeGrid.day)
        let lastDay = max(span.first, span.last - 1).floorDivided(by: TimeGrid.day)
        try writer.rebuildRows(ofDays: firstDay..<(lastDay + 1), in: txn)
        try rows.flush(in: txn)
        try caches.invalidate(
            series: record.name,
            touching: (firstDay * TimeGrid.day)..<((lastDay + 1) * TimeGrid.day), in: txn)
        try storage.countChange(of: record, in: txn)
    }
}
