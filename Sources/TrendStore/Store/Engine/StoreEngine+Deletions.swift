import LMDB

/// Deletions as the change log records them, applied to the samples: a range of one source
/// or of all, or one sample by its id, sparing what was written at a later version.
extension StoreEngine {
    /// What applying one deletion did.
    struct Removal {
        /// The samples removed.
        var removed = 0
        /// The samples of the series left in the deletion's range (of every source).
        var remaining = 0
        /// What the layers above must recompute.
        var removedToday: [RemovedToday] = []
    }

    /// Removes from `record`'s streams the samples `deletion` removes whose version (as
    /// `context` reads it) is not later than the deletion's.
    func remove(
        _ deletion: SampleDeletion, from record: SeriesRecord, context: inout ApplyContext,
        rows: RowWrites, zlib: ZlibCodec, in txn: borrowing WriteTransaction
    ) throws -> Removal {
        var removal = Removal()
        for stream in try storage.streams(of: record, in: txn) {
            let samples = try storage.samples(
                of: stream.record, from: deletion.range.lowerBound,
                to: deletion.range.upperBound, in: txn, zlib: zlib)
            guard deletion.source == nil || deletion.source == stream.name else {
                removal.remaining += samples.count
                continue
            }
            var survivors: [Sample] = []
            for sample in samples
            where try !deletion.removes(sample)
                || context.version(of: sample, stream: stream.record, in: txn)
                    > deletion.version
            {
                survivors.append(sample)
            }
            removal.remaining += survivors.count
            guard survivors.count < samples.count else { continue }
            try listWholeDayVersions(
                of: stream.record, starts: deletion.range, zlib: zlib, in: txn)
            var writer = SeriesWriter(
                storage: storage, record: stream.record, zlib: zlib, rows: rows,
                mergedSeries: record.hasSources ? record : nil)
            removal.removed += try writer.delete(
                from: deletion.range.lowerBound, to: deletion.range.upperBound, in: txn)
            if !survivors.isEmpty {
                removal.removed -= survivors.count
                _ = try writer.upsert(
                    try SampleBatch(series: record.name, samples: survivors), in: txn)
            }
            removal.removedToday += try changed(record, try writer.finish(in: txn), in: txn)
        }
        return removal
    }
}
