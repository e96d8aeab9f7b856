import LMDB

/// Applies changes to one series inside one write transaction: merges samples into the
/// blocks they fall into, then brings the rollup row of every UTC day a change touches
/// up to date, and reports which instants changed (it calls nothing above the storage layer).
///
/// A write touches only its blocks: a sample goes to the block with the greatest key at
/// or before its start (or the first block), in-order appends go to the last block, and a
/// full block that a write only appends after is left as it is. A merge that overfills a
/// block splits it into even blocks of about ``SampleStorage/targetBlockBytes``, never
/// between samples sharing a start. A few samples appended after a grown newest block
/// begin a tail block of at most about ``SampleStorage/tailBlockBytes`` and
/// ``SampleStorage/tailBlockSamples``, folded into the block before it when the next tail
/// begins.
///
/// Blocks decoded or merged during the transaction stay in memory, so each is decoded at
/// most once per write; blocks are read through the storage's decoded-block cache and the
/// ones written go into it, so the next commit to the same block does not inflate it. A
/// block that stays one block keeps its coding until its sample count doubles
/// (``BlockCodec/encode(_:zlib:keeping:segmented:)``).
struct SeriesWriter: ~Copyable {
    let storage: SampleStorage
    var record: SeriesRecord
    let zlib: ZlibCodec
    /// Encodes the blocks a write leaves, on several threads when they are many.
    private var encoder: BlockEncoder
    /// The blocks this writer has read or written, by key.
    private var blocks: [Int64: StoredBlock] = [:]
    /// The days whose rows must be rebuilt from their samples.
    var daysToRebuild = Set<Int64>()
    /// The day last added to `daysToRebuild`: samples of it need no note (most of a bulk
    /// write's samples fall in the day of the one before).
    var lastDayToRebuild = Int64.min
    /// Samples inserted whole into one quarter-hour, by day: rows that can be updated in place.
    var containedInserts: [Int64: [Sample]] = [:]
    /// With ``mergedSeries``: the spans of the samples inserted, replaced or removed.
    var mergedChanges: [Range<Int64>] = []
    /// Where the changed rollup rows go until the transaction's end.
    let rows: RowWrites
    /// The series whose source `record` is, when the series has several sources: its rows
    /// then hold the merged figures of them all, rebuilt for every day a change may alter
    /// (``finishMerged(_:in:)``), and `record`'s longest duration is the caller's to store.
    let mergedSeries: SeriesRecord?
    /// Whether there is a ``mergedSeries``: asked once a sample, and cheaper to ask than the
    /// optional record (whose comparison with `nil` copies it).
    let writesMergedSource: Bool
    /// The samples inserted or changed by the upserts so far, in the order written, when the
    /// caller asks for them (non-`nil`): what the change log records.
    var written: [Sample]?

    /// A writer whose rows go to `rows`, which the caller flushes before the transaction
    /// commits (one `RowWrites` may serve every writer of the transaction).
    /// `mergedSeries`, when given, is the series of several sources whose source `record` is.
    init(
        storage: SampleStorage, record: SeriesRecord, zlib: ZlibCodec, rows: RowWrites,
        mergedSeries: SeriesRecord? = nil
    ) {
        self.storage = storage
        self.record = record
        self.zlib = zlib
        self.rows = rows
        self.mergedSeries = mergedSeries
        writesMergedSource = mergedSeries != nil
        encoder = BlockEncoder(zlib: zlib)
    }

    /// Upserts `batch`: new identities are inserted, existing ones get the batch's value.
    mutating func upsert(_ batch: SampleBatch, in txn: borrowing WriteTransaction) throws
        -> WriteSummary
    {
        if batch.maximumDuration > record.maximumDuration {
            record.maximumDuration = batch.maximumDuration
            if mergedSeries == nil { try storage.saveSeriesRecord(record, in: txn) }
        }
        var summary = try upsert(batch.samples[...], in: txn)
        summary.duplicates = batch.duplicates
        return summary
    }

    /// Upserts sorted, identity-unique samples.
    private mutating func upsert(_ samples: ArraySlice<Sample>, in txn: borrowing WriteTransaction)
        throws -> WriteSummary
    {
        var summary = WriteSummary()
        var runStart = samples.startIndex
        while runStart < samples.endIndex {
            let (target, next) = try locate(samples[runStart].startMilliseconds, in: txn)
            var runEnd = runStart + 1
            if let next {
                while runEnd < samples.endIndex && samples[runEnd].startMilliseconds < next {
                    runEnd += 1
                }
            } else {
                runEnd = samples.endIndex
            }
            let existing = try target.map { try block($0, in: txn) } ?? StoredBlock()
            let merge = SampleMerge(
                existing: existing.samples, incoming: samples[runStart..<runEnd])
            summary += merge.summary
            if !merge.inserted.isEmpty || !merge.replaced.isEmpty {
                for sample in merge.inserted { noteInsert(sample) }
                for sample in merge.replaced { touch(sample) }
                if written != nil {
                    written?.append(contentsOf: merge.inserted)
                    written?.append(contentsOf: merge.replaced)
                }
                try store(
                    merge.merged, replacing: target, existing: existing,
                    changesExisting: !merge.replaced.isEmpty, isNewest: next == nil, in: txn)
            }
            runStart = runEnd
        }
        return summary
    }

    /// Removes the samples whose start lies in `[from, to)`; returns how many there were.
    mutating func delete(from: Int64, to: Int64, in txn: borrowing WriteTransaction) throws -> Int {
        guard from < to else { return 0 }
        var removed = 0
        for firstStart in try storage.blockStarts(
            of: record, startingFrom: from, through: to - 1, in: txn)
        {
            let existing = try block(firstStart, in: txn)
            let samples = existing.samples
            var kept: [Sample] = []
            kept.reserveCapacity(samples.count)
            for sample in samples {
                if sample.startMilliseconds >= from && sample.startMilliseconds < to {
                    touch(sample)
                    removed += 1
                } else {
                    kept.append(sample)
                }
            }
            guard kept.count != samples.count else { continue }
            try store(
                kept, replacing: firstStart, existing: existing, changesExisting: true,
                isNewest: false, in: txn)
        }
        return removed
    }

    /// Rebuilds the rows of `days` from the samples into ``rows`` (a day without samples
    /// loses its row).
    mutating func rebuildRows(ofDays days: Range<Int64>, in txn: borrowing WriteTransaction) throws
    {
        daysToRebuild.formUnion(days)
        try finish(in: txn)
    }

    /// Brings the rollup row of every touched day up to date.
    ///
    /// - Returns: The instants whose figures the changes may have altered (whole UTC days),
    ///   for the layers above to invalidate what they derived from them; `nil` when nothing changed.
    @discardableResult
    mutating func finish(in txn: borrowing WriteTransaction) throws -> Range<Int64>? {
        if let mergedSeries { return try finishMerged(mergedSeries, in: txn) }
        let changedDays = daysToRebuild.union(containedInserts.keys)
        var rebuilding: [(day: Int64, samples: [Sample])] = []
        for day in changedDays.sorted() {
            if !daysToRebuild.contains(day), let inserts = containedInserts[day],
                try updateInPlace(day: day, inserting: inserts, in: txn)
            {
                continue
            }
            let dayStart = day * TimeGrid.day
            let overlapping = try samples(
                startingFrom: dayStart - record.maximumDuration, before: dayStart + TimeGrid.day,
                in: txn)
            rebuilding.append((day, overlapping))
            if rebuilding.count == Self.daysPerRebuild {
                try putRows(rebuilding: rebuilding, build: Self.build(kind: record.kind))
                rebuilding.removeAll(keepingCapacity: true)
            }
        }
        try putRows(rebuilding: rebuilding, build: Self.build(kind: record.kind))
        defer {
            daysToRebuild.removeAll()
            containedInserts.removeAll()
            lastDayToRebuild = .min
        }
        guard let first = changedDays.min(), let last = changedDays.max() else { return nil }
        return (first * TimeGrid.day)..<((last + 1) * TimeGrid.day)
    }

    // MARK: Blocks

    /// The key of the block a sample starting at `start` belongs in (`nil` when the series
    /// has none), and the key of the block after it.
    private func locate(_ start: Int64, in txn: borrowing WriteTransaction) throws -> (
        target: Int64?, next: Int64?
    ) {
        try storage.blocks.locate(series: record.id, start: start, in: txn)
    }

    /// Stores `merged` in place of the block `target` held (`existing`), in blocks that
    /// each fill about ``SampleStorage/targetBlockBytes`` (LMDB stores a large value in whole
    /// pages, so a block much smaller than its pages wastes them); `changesExisting` says
    /// whether `merged` removes or changes any of `existing`'s samples, `isNewest` whether
    /// `target` is the series' last block.
    ///
    /// A few samples appended after the newest block, once it has grown past
    /// ``SampleStorage/tailBlockBytes`` or ``SampleStorage/tailBlockSamples``, begin a small
    /// tail block instead of rewriting it (a one-sample commit then re-encodes a few hundred
    /// samples in a leaf page, not up to 32,768 in four overflow pages); the next such append
    /// folds that tail back into the block before it while both fit in one, so blocks still
    /// fill their pages.
    private mutating func store(
        _ merged: [Sample], replacing target: Int64?, existing: StoredBlock,
        changesExisting: Bool, isNewest: Bool, in txn: borrowing WriteTransaction
    ) throws {
        var unplaced: ArraySlice<Sample> = merged[...]
        let old = existing.samples
        // Bytes per sample: from the block this replaces, else learnt from the first block.
        var perSample: Double? =
            old.isEmpty ? nil : Double(existing.byteCount) / Double(old.count)
        // Appends only: `existing`'s samples lead `merged` unchanged.
        let appendsOnly =
            target != nil && !changesExisting && merged.count > old.count
            && old.last.map { merged[old.count].startMilliseconds > $0.startMilliseconds } ?? false
        // A few samples appended at the series' end: they begin a tail after a grown block,
        // and the small block they write (a tail, or the block a one-sample commit rewrites)
        // is deflated in one piece, which is faster.
        let tailWrite =
            appendsOnly && isNewest
            && BlockSizing.isSmallAppend(merged.count - old.count, bytesPerSample: perSample ?? 0)
        if appendsOnly && BlockSizing.isFull(byteCount: existing.byteCount, count: old.count) {
            // Leave a full block; start the next one.
            unplaced = merged[old.count...]
        } else if tailWrite, let target,
            BlockSizing.isGrownTail(byteCount: existing.byteCount, count: old.count)
        {
            if let (previousKey, previous) = try previousBlock(before: target, in: txn),
                !BlockSizing.isFull(
                    byteCount: previous.byteCount + existing.byteCount,
                    count: previous.samples.count + merged.count)
            {
                // Fold the grown tail and the appended samples into the block before it.
                try storage.blocks.delete(series: record.id, firstStart: target, in: txn)
                blocks[target] = nil
                try store(
                    previous.samples + merged, replacing: previousKey, existing: previous,
                    changesExisting: false, isNewest: false, in: txn)
                return
            }
            // Leave the grown block; the appended samples begin a tail.
            unplaced = merged[old.count...]
        } else if let target {
            try storage.blocks.delete(series: record.id, firstStart: target, in: txn)
            blocks[target] = nil
        }
        // A block that stays one block (all of `merged`) keeps its coding
        // until its sample count doubles: a stream of one-sample commits chooses one about
        // log2(n) times, the last from at least half of the block's samples.
        let keeping =
            BlockSizing.magnitude(old.count) == BlockSizing.magnitude(merged.count)
            ? existing.header : nil
        var newest: (key: Int64, block: StoredBlock)?
        // Where the last block that outgrew its pages began: cut again once, then kept.
        var recut: Int?
        while !unplaced.isEmpty {
            var planned = plan(&unplaced, bytesPerSample: perSample)
            var overshot: Double?
            var encoded =
                planned.count == 1
                ? [
                    try BlockCodec.encode(
                        planned[0], zlib: zlib,
                        keeping: planned[0].count == merged.count ? keeping : nil,
                        segmented: !tailWrite)
                ] : try encoder.encode(planned)
            // A block that outgrew its pages (a fifth page for a few bytes) goes back, with the
            // blocks after it, to be cut again from the sizes just learnt; once, so a block that
            // cannot shrink (samples sharing a start) is kept the second time.
            if let over = encoded.indices.first(where: {
                encoded[$0].count > SampleStorage.targetBlockBytes
                    && planned[$0].startIndex != recut
            }) {
                recut = planned[over].startIndex
                // Aimed a little under: a shorter prefix of the same samples compresses a
                // little worse.
                overshot = 1.02 * Double(encoded[over].count) / Double(planned[over].count)
                unplaced = merged[planned[over].startIndex...]
                planned.removeSubrange(over...)
                encoded.removeSubrange(over...)
            }
            for (slice, bytes) in zip(planned, encoded) {
                let key = slice[slice.startIndex].startMilliseconds
                try storage.blocks.put(bytes, series: record.id, firstStart: key, in: txn)
                let stored = StoredBlock(
                    samples: Array(slice), byteCount: bytes.count,
                    header: bytes.withUnsafeBytes { try? BlockCodec.header($0) })
                blocks[key] = stored
                perSample = Double(bytes.count) / Double(slice.count)
                newest = (key, stored)
            }
            if let overshot { perSample = overshot }
        }
        // The newest block is the one the next commit rewrites; the earlier blocks of a bulk
        // write are not worth the cache's room.
        if let (key, stored) = newest, let header = stored.header {
            storage.decodedBlocks.hold(stored.samples, header: header, firstStart: key, of: record)
        }
    }

    /// Cuts the samples of the next blocks off `unplaced`, as many blocks as
    /// ``BlockEncoder/blocksPerRound`` once the bytes per sample are known (one before), each of
    /// ``BlockSizing/blockSampleCount(remaining:bytesPerSample:)`` samples and never between
    /// samples sharing a start.
    private func plan(_ unplaced: inout ArraySlice<Sample>, bytesPerSample: Double?)
        -> [ArraySlice<Sample>]
    {
        var planned: [ArraySlice<Sample>] = []
        let width = bytesPerSample == nil ? 1 : BlockEncoder.blocksPerRound
        while !unplaced.isEmpty && planned.count < width {
            let size = BlockSizing.blockSampleCount(
                remaining: unplaced.count, bytesPerSample: bytesPerSample)
            var end = unplaced.startIndex + size
            while end < unplaced.endIndex
                && unplaced[end].startMilliseconds == unplaced[end - 1].startMilliseconds
            {
                end += 1
            }
            planned.append(unplaced[..<end])
            unplaced = unplaced[end...]
        }
        return planned
    }

    /// The block before the one keyed `key`, with its key; `nil` when that one is the first.
    private mutating func previousBlock(before key: Int64, in txn: borrowing WriteTransaction)
        throws -> (Int64, StoredBlock)?
    {
        guard key > .min, let previous = try locate(key - 1, in: txn).target, previous < key
        else { return nil }
        return (previous, try block(previous, in: txn))
    }

    /// The block with key `key`.
    private mutating func block(_ key: Int64, in txn: borrowing WriteTransaction) throws
        -> StoredBlock
    {
        if let cached = blocks[key] { return cached }
        let read =
            try storage.withBlock(key, of: record, in: txn) { bytes in
                // Read once; a damaged header is read again by the cache, which reports it.
                let header = try? BlockCodec.header(bytes)
                return (
                    try storage.decodedBlocks.block(
                        key, of: record, bytes: bytes, header: header, storage: storage,
                        zlib: zlib
                    ).samples, bytes.count, header
                )
            }
        let block = StoredBlock(
            samples: read?.0 ?? [], byteCount: read?.1 ?? 0, header: read?.2)
        blocks[key] = block
        return block
    }

    /// The samples starting in `[from, before)`, in order.
    private mutating func samples(
        startingFrom from: Int64, before: Int64, in txn: borrowing WriteTransaction
    ) throws -> [Sample] {
        var result: [Sample] = []
        for firstStart in try storage.blockStarts(
            of: record, startingFrom: from, through: before - 1, in: txn)
        {
            let samples = try block(firstStart, in: txn).samples
            let first = samples.partitioningIndex { $0.startMilliseconds >= from }
            let end = max(first, samples.partitioningIndex { $0.startMilliseconds >= before })
            result.append(contentsOf: samples[first..<end])
        }
        return result
    }
}

/// A block as the writer holds it: its samples, its encoded size and its header.
private struct StoredBlock {
    var samples: [Sample] = []
    var byteCount = 0
    /// The header it was read or written with (`nil` for no block).
    var header: BlockCodec.Header?
}
