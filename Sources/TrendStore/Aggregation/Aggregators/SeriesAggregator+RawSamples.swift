import LMDB

/// Raw reads: the samples of a range, decoded through the decoded-block cache, and the
/// latest sample end before now.
extension SeriesAggregator {
    /// The samples starting in `[from, through]`, in order, through the decoded-block cache,
    /// with their roles when they are the merged view of several sources.
    func rawSamples<T: ReadableTransaction & ~Copyable>(
        startingFrom from: Int64, through: Int64, txn: borrowing T
    ) throws -> (samples: [Sample], roles: [SampleRole]?) {
        var samples: [Sample] = []
        var roles: [SampleRole]? = record.hasSources ? [] : nil
        try forEachRawSample(startingFrom: from, through: through, txn: txn) { sample, role in
            samples.append(sample)
            roles?.append(role)
        }
        return (samples, roles)
    }

    /// The decoded blocks that may hold samples starting in `[from, through]`, in time order,
    /// through the decoded-block cache: their samples, filtered to that range, are
    /// ``rawSamples(startingFrom:through:txn:)``'s, without copying them.
    func decodedBlocks<T: ReadableTransaction & ~Copyable>(
        from: Int64, through: Int64, txn: borrowing T
    ) throws -> [DecodedBlock] {
        var blocks: [DecodedBlock] = []
        try forEachDecodedBlock(from: from, through: through, txn: txn) { blocks.append($0) }
        return blocks
    }

    /// Has the blocks from the one that may hold samples starting at `from` on, through
    /// `through`, decoded ahead on several threads into the decoded-block cache, until they
    /// hold half its samples (so they are still there when the scan reaches them); returns
    /// the key of the first block left for later, or `nil` when none is left.
    func prefetchBlocks<T: ReadableTransaction & ~Copyable>(
        from: Int64, through: Int64, txn: borrowing T
    ) throws -> Int64? {
        // A series of several sources is read merged, range by range.
        guard !record.hasSources else { return nil }
        let cache = storage.decodedBlocks
        var blocks: [(firstStart: Int64, header: BlockCodec.Header, bytes: [UInt8])] = []
        var samples = 0
        var next: Int64?
        try storage.forEachBlock(of: record, startingFrom: from, through: through, in: txn) {
            firstStart, bytes, known in
            guard samples < cache.sampleBudget / 2 else {
                next = firstStart
                return false
            }
            // A damaged header is left for the read to report.
            guard let header = known ?? (try? BlockCodec.header(bytes)) else { return true }
            samples += header.count
            if !cache.holds(firstStart, of: record, header: header) {
                blocks.append((firstStart, header, Array(bytes)))
            }
            return true
        }
        try storage.decodedBlocks.prefetch(blocks, of: record, storage: storage)
        return next
    }

    /// Calls `body` with each sample starting in `[from, through]` and its role, in order,
    /// through the decoded-block cache; with `startsOnly`, the merged view of several
    /// sources leaves out the pieces (for counts and start sums, which pieces never add to).
    func forEachRawSample<T: ReadableTransaction & ~Copyable>(
        startingFrom from: Int64, through: Int64, startsOnly: Bool = false, txn: borrowing T,
        _ body: (Sample, SampleRole) -> Void
    ) throws {
        try forEachDecodedBlock(from: from, through: through, startsOnly: startsOnly, txn: txn) {
            block in
            let samples = block.samples
            var index = samples.partitioningIndex { $0.startMilliseconds >= from }
            while index < samples.count && samples[index].startMilliseconds <= through {
                body(samples[index], block.roles?[index] ?? .whole)
                index += 1
            }
        }
    }

    /// The greatest end among the samples that start at or before `now` and overlap
    /// `[from, now]`, or `nil` when none does.
    ///
    /// A sample with a duration overlaps when it starts at or before `now` and ends after
    /// `from` (so one starting exactly at `now` counts); an instant sample when it lies
    /// in `[from, now]`.
    func latestEnd<T: ReadableTransaction & ~Copyable>(from: Int64, now: Int64, txn: borrowing T)
        throws -> Int64?
    {
        if record.hasSources {
            // Every source's samples, whether or not a higher source covers them.
            return try streams(in: txn).compactMap {
                try SeriesAggregator(storage: storage, record: $0.record).latestEnd(
                    from: from, now: now, txn: txn)
            }.max()
        }
        var latest: Int64?
        try forEachDecodedBlock(from: from - record.maximumDuration, through: now, txn: txn) {
            block in
            let samples = block.samples
            let startedByNow = samples.partitioningIndex { $0.startMilliseconds > now }
            guard startedByNow > 0 else { return }
            // Any sample ending after `from` overlaps; the latest such end is the prefix maximum.
            let candidate = block.prefixMaximumEnd[startedByNow - 1]
            if candidate > from {
                latest = max(latest ?? .min, candidate)
            } else if candidate == from,
                samples[..<startedByNow].contains(where: {
                    $0.startMilliseconds == from && $0.endMilliseconds == from
                })
            {
                latest = max(latest ?? .min, from)
            }
        }
        return latest
    }

    /// Calls `body` with each decoded block that may hold samples starting in
    /// `[from, through]`, in time order, from one cursor walk.
    ///
    /// For a series of several sources the one block passed is their merged view over the
    /// range (``SampleStorage/merged(_:of:startingFrom:through:startsOnly:in:zlib:)``).
    fileprivate func forEachDecodedBlock<T: ReadableTransaction & ~Copyable>(
        from: Int64, through: Int64, startsOnly: Bool = false, txn: borrowing T,
        _ body: (DecodedBlock) throws -> Void
    ) throws {
        if record.hasSources {
            let merged = try storage.merged(
                try streams(in: txn), of: record, startingFrom: from, through: through,
                startsOnly: startsOnly, in: txn, zlib: zlib)
            try body(DecodedBlock(samples: merged.samples, roles: merged.roles))
            return
        }
        try storage.forEachBlock(of: record, startingFrom: from, through: through, in: txn) {
            firstStart, bytes, header in
            try body(
                storage.decodedBlocks.block(
                    firstStart, of: record, bytes: bytes, header: header, storage: storage,
                    zlib: zlib))
            return true
        }
    }
}
