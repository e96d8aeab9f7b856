import LMDB

/// Raw reads: the samples of a range, decoded through the decoded-chunk cache, and the
/// latest sample end before now.
extension SeriesAggregator {
    /// The samples starting in `[from, through]`, in order, through the decoded-chunk cache.
    func rawSamples<T: ReadableTransaction & ~Copyable>(
        startingFrom from: Int64, through: Int64, txn: borrowing T
    ) throws -> [Sample] {
        var result: [Sample] = []
        try forEachRawSample(startingFrom: from, through: through, txn: txn) { result.append($0) }
        return result
    }

    /// Calls `body` with each sample starting in `[from, through]`, in order, through the
    /// decoded-chunk cache.
    func forEachRawSample<T: ReadableTransaction & ~Copyable>(
        startingFrom from: Int64, through: Int64, txn: borrowing T, _ body: (Sample) -> Void
    ) throws {
        try forEachDecodedChunk(from: from, through: through, txn: txn) { chunk in
            let samples = chunk.samples
            var index = samples.partitioningIndex { $0.startMilliseconds >= from }
            while index < samples.count && samples[index].startMilliseconds <= through {
                body(samples[index])
                index += 1
            }
        }
    }

    /// The greatest end among the samples that start at or before `now` and overlap
    /// `[from, now]`, or `nil` when none does (SPEC §3.1).
    ///
    /// A sample with a duration overlaps when it starts at or before `now` and ends after
    /// `from` (so one starting exactly at `now` counts); an instant sample when it lies
    /// in `[from, now]`.
    func latestEnd<T: ReadableTransaction & ~Copyable>(from: Int64, now: Int64, txn: borrowing T)
        throws -> Int64?
    {
        var latest: Int64?
        try forEachDecodedChunk(from: from - record.maximumDuration, through: now, txn: txn) {
            chunk in
            let samples = chunk.samples
            let startedByNow = samples.partitioningIndex { $0.startMilliseconds > now }
            guard startedByNow > 0 else { return }
            // Any sample ending after `from` overlaps; the latest such end is the prefix maximum.
            let candidate = chunk.prefixMaximumEnd[startedByNow - 1]
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

    /// Calls `body` with each decoded piece that may hold samples starting in
    /// `[from, through]`, in time order: blocks straight from one cursor walk, or, while the
    /// format migration has left format-1 chunks, each piece looked up by its key.
    fileprivate func forEachDecodedChunk<T: ReadableTransaction & ~Copyable>(
        from: Int64, through: Int64, txn: borrowing T, _ body: (DecodedChunk) throws -> Void
    ) throws {
        if try txn.statistics(of: storage.chunks).entries > 0 {
            for piece in try storage.pieces(
                of: record, startingFrom: from, through: through, in: txn)
            {
                try storage.withPiece(piece, of: record, in: txn) { bytes in
                    try body(
                        storage.decodedChunks.chunk(
                            piece, of: record, bytes: bytes, storage: storage, zlib: zlib))
                }
            }
            return
        }
        try storage.forEachBlock(of: record, startingFrom: from, through: through, in: txn) {
            block, bytes in
            try body(
                storage.decodedChunks.chunk(
                    block, of: record, bytes: bytes, storage: storage, zlib: zlib))
            return true
        }
    }
}
