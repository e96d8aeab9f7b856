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

    /// Sets the priority order of `name`'s sources, then rebuilds its rows from the merged
    /// view under the new order, a batch of days per transaction: the order commits first,
    /// with the series marked as rebuilding, so from then on its figures follow the new
    /// order (read from its samples until its rows are rebuilt). The series' cached
    /// aggregates are invalidated and its observers woken with the order's commit.
    ///
    /// - Parameters:
    ///   - daysPerBatch: How many days one transaction rebuilds.
    ///   - stoppingAfter: Tests: return after this many batches, as a kill between two
    ///     would leave the store.
    func setSourcePriority(
        _ order: [String], of name: String,
        daysPerBatch: Int = PriorityRebuild.daysPerBatch, stoppingAfter: Int? = nil
    ) throws {
        let names = try order.map { try SourceName.validated($0) }
        var seen = Set<String>()
        for source in names where !seen.insert(source).inserted {
            throw StoreError.invalidArgument(
                .source, reason: "source \"\(SourceName.display(source))\" is named twice")
        }
        let series = try write { txn, zlib in
            let record = try storage.requireSeries(named: name, in: txn)
            var log = try changeRecorder(zlib: zlib, in: txn)
            log.notePriority(
                PriorityChange(series: record.name, order: names, version: log.local()))
            try setPriority(names, of: record, in: txn)
            try commit(log, in: txn)
            return record.name
        }
        try finishRowRebuilds(
            of: [series], daysPerBatch: daysPerBatch, stoppingAfter: stoppingAfter)
    }

    /// Stores `names` (valid, NFC) as the priority order of `record` and marks its rows for
    /// a rebuild under it (``PriorityRebuild``; ``finishRowRebuilds(of:daysPerBatch:stoppingAfter:)``
    /// does it after the commit), in `txn`; invalidates its cached aggregates and wakes its
    /// observers.
    func setPriority(
        _ names: [String], of record: SeriesRecord, in txn: borrowing WriteTransaction
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
        guard let touched = try PriorityRebuild(storage: storage).begin(&record, in: txn) else {
            return
        }
        try caches.invalidate(series: record.name, touching: touched, in: txn)
        try storage.countChange(of: record, in: txn)
    }

    /// Rebuilds the rows of `names` (`nil`: every series with a rebuild under way) a batch
    /// of `daysPerBatch` days per transaction, until none is left; another process may
    /// share the work, each batch taking the next days from the stored mark.
    func finishRowRebuilds(
        of names: [String]? = nil, daysPerBatch: Int = PriorityRebuild.daysPerBatch,
        stoppingAfter: Int? = nil
    ) throws {
        let rebuild = PriorityRebuild(storage: storage)
        let series = try names ?? read { try rebuild.seriesWithPendingRebuilds(in: $0) }
        var batches = 0
        for name in series {
            var finished = false
            while !finished {
                if let stoppingAfter, batches >= stoppingAfter { return }
                finished = try write { txn, zlib in
                    try rebuild.step(
                        series: name, daysPerBatch: max(1, daysPerBatch), zlib: zlib, in: txn)
                }
                batches += 1
            }
        }
    }
}
