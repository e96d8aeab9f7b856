import LMDB

/// Sample ids (``SampleID``): kept with each sample's version in the change log, found
/// through the `sync` database's index, and deleted by.
extension StoreEngine {
    /// A sample's identity within one source.
    struct Identity: Hashable {
        let start: Int64
        let end: Int64

        init(_ sample: Sample) {
            start = sample.startMilliseconds
            end = sample.endMilliseconds
        }
    }

    /// The ids `entry` gives its samples, by identity (of a sample given twice, the last
    /// occurrence's, as the batch keeps it); `nil` when it gives none.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` when the ids are not as many as
    ///   the samples.
    static func idsByIdentity(of entry: SeriesSamples) throws -> [Identity: SampleID]? {
        guard let ids = entry.ids else { return nil }
        guard ids.count == entry.samples.count else {
            throw StoreError.invalidArgument(
                .sampleID,
                reason:
                    "series \(entry.series): \(ids.count) ids for \(entry.samples.count) samples")
        }
        var byIdentity: [Identity: SampleID] = [:]
        // A later `nil` removes an earlier id of the same identity.
        for (sample, id) in zip(entry.samples, ids) { byIdentity[Identity(sample)] = id }
        return byIdentity
    }

    /// Records every sample of `samples` (written to the source stream `stream` of series
    /// `series`) in the change log with its id in `ids` or none, and indexes the ids.
    func noteSampleIDs(
        _ ids: [Identity: SampleID], of samples: [Sample], series: UInt32, stream: SeriesRecord,
        log: inout ChangeRecorder, in txn: borrowing WriteTransaction
    ) throws {
        let given = samples.map { ids[Identity($0)] }
        log.noteWritten(samples, stream: stream, version: log.local(), ids: given)
        try indexSampleIDs(given, of: samples, series: series, stream: stream.id, in: txn)
    }

    /// Indexes `ids[i]`, when there is one, as naming `samples[i]` of stream `stream`.
    func indexSampleIDs(
        _ ids: [SampleID?], of samples: [Sample], series: UInt32, stream: UInt32,
        in txn: borrowing WriteTransaction
    ) throws {
        guard let sync = storage.sync else { return }
        for (sample, id) in zip(samples, ids) {
            guard let id else { continue }
            try sync.putSampleID(
                id, series: series,
                target: SyncTable.SampleIDTarget(
                    stream: stream, start: sample.startMilliseconds, end: sample.endMilliseconds),
                in: txn)
        }
    }

    /// Removes the samples of series `name` whose last write gave them one of `ids`, and
    /// records each as a deletion by id in the change log; ids that name no sample are
    /// passed over.
    ///
    /// - Returns: How many samples were removed.
    func deleteSamples(withIDs ids: [SampleID], from name: String) throws -> Int {
        try write { txn, zlib in
            var log = try changeRecorder(zlib: zlib, in: txn)
            let rows = RowWrites(storage: storage)
            let removal = try removeSamples(
                withIDs: ids, from: name, log: &log, rows: rows, zlib: zlib, in: txn)
            try finishWrite(log, rows: rows, removedToday: removal.removedToday, in: txn)
            return removal.removed
        }
    }

    /// Removes, in `txn`, the samples of series `name` whose last write gave them one of
    /// `ids`, recording each removal in `log`.
    ///
    /// - Throws: ``StoreError/Code/unknownSeries`` when there is no such series.
    func removeSamples(
        withIDs ids: [SampleID], from name: String, log: inout ChangeRecorder, rows: RowWrites,
        zlib: ZlibCodec, in txn: borrowing WriteTransaction
    ) throws -> Removal {
        let record = try storage.requireSeries(named: name, in: txn)
        guard let sync = storage.sync else {
            throw StoreError.incompatibleFormat("the store keeps no change log (format 5)")
        }
        let streams = try storage.streams(of: record, in: txn)
        var context = ApplyContext(storage: storage, sync: sync, zlib: zlib)
        var removal = Removal()
        var seen = Set<SampleID>()
        for id in ids where seen.insert(id).inserted {
            guard let target = try sync.sampleIDTarget(id, series: record.id, in: txn) else {
                continue
            }
            try sync.removeSampleID(id, series: record.id, in: txn)
            guard let stream = streams.first(where: { $0.record.id == target.stream }) else {
                continue
            }
            // The index may name a sample written again without the id, or deleted since: a
            // deletion is recorded only for a sample there, holding the id.
            let sample = Sample(
                startMilliseconds: target.start, endMilliseconds: target.end, value: 0)
            guard try context.entry(of: sample, stream: stream.record, in: txn)?.id == id else {
                continue
            }
            let deletion = SampleDeletion(
                series: record.name, source: stream.name,
                range: target.start..<(target.start + 1), removesSeries: false,
                version: log.local(), sample: SampleDeletion.ByID(end: target.end, id: id))
            let done = try remove(
                deletion, from: record, context: &context, rows: rows, zlib: zlib, in: txn)
            guard done.removed > 0 else { continue }
            log.noteDeletion(deletion)
            removal.removed += done.removed
            removal.removedToday += done.removedToday
        }
        return removal
    }
}
