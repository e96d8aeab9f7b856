import LMDB

/// Runs of days that raw samples alone answer (all seven weekday averages asked in a zone
/// whose hours the summaries do not share): their blocks are read on the transaction's
/// thread, then the days' figures are prorated on several threads, each day by the same
/// additions, in the same order, as one at a time.
extension SeriesAggregator {
    /// The most days one run holds: the figures of a run are computed before its first is
    /// handed on.
    static let daysPerRawRun = 32

    /// The figures of the days of `pass` from offset `start` on whose every span until `now`
    /// raw samples answer, in order, at most ``daysPerRawRun`` of them and while their blocks
    /// hold at most half the decoded-block cache's samples; empty when the day at `start` is
    /// not one. `prefetched` is the key of the first block not yet decoded ahead (blocks are
    /// decoded ahead through `runEnd`).
    func rawRun<T: ReadableTransaction & ~Copyable>(
        of pass: DayPass, from start: Int, now: Int64?, cut: Int64?, hours: HourRows?,
        runEnd: Int64, prefetched: inout Int64, txn: borrowing T
    ) throws -> [LocalDayFigures] {
        var days: [(spans: ArraySlice<HourSpan>, blocks: [DecodedBlock])] = []
        var heldSamples = 0
        var offset = start
        while offset < pass.count && days.count < Self.daysPerRawRun
            && heldSamples < storage.decodedBlocks.sampleBudget / 2
        {
            guard case .spans = pass.readings[offset] else { break }
            let spans = pass.spans(at: offset)
            let live = spans.prefix { span in now.map { span.start <= $0 } ?? true }
            guard let first = live.first, live.allSatisfy({ readsRaw($0, hours: hours, cut: cut) })
            else { break }
            let blocks = try blocks(
                from: first.start - record.maximumDuration,
                through: lastRawEnd(of: spans, hours: hours, cut: cut, now: now),
                aheadThrough: runEnd, prefetched: &prefetched, txn: txn)
            heldSamples += blocks.reduce(0) { $0 + $1.samples.count }
            days.append((live, blocks))
            offset += 1
        }
        guard !days.isEmpty else { return [] }
        return try ConcurrentWork.map(days) { day in
            var figures = LocalDayFigures()
            for span in day.spans {
                Self.addRaw(day.blocks, in: span, until: now, into: &figures)
            }
            return figures
        }
    }

    /// The decoded blocks of a day's raw spans, which read samples starting in `[from,
    /// through]`; first, when a scan runs through `aheadThrough` and the day reaches the block
    /// keyed `prefetched` (the first not yet decoded ahead), the next blocks are decoded ahead
    /// on several threads (``prefetchBlocks(from:through:txn:)``).
    func blocks<T: ReadableTransaction & ~Copyable>(
        from: Int64, through: Int64, aheadThrough runEnd: Int64?, prefetched: inout Int64,
        txn: borrowing T
    ) throws -> [DecodedBlock] {
        if let runEnd, through >= prefetched {
            prefetched =
                try prefetchBlocks(from: max(from, prefetched), through: runEnd, txn: txn) ?? .max
        }
        return try decodedBlocks(from: from, through: through, txn: txn)
    }

    /// Adds the samples of a day's decoded `blocks` (in order) that overlap `span`, up to
    /// `now`, to hour `span.hour`; an instant at `now` belongs to the one span holding `now`,
    /// never also to the span that ends there.
    static func addRaw(
        _ blocks: [DecodedBlock], in span: HourSpan, until now: Int64?,
        into figures: inout LocalDayFigures
    ) {
        let end = min(span.end, now ?? .max)
        let holdsNow = now.map { span.start <= $0 && $0 < span.end } ?? false
        for block in blocks {
            let samples = block.samples
            // Every sample before the first whose running maximum of ends reaches the span's
            // start ends before it: such samples add nothing, so skipping them leaves the
            // same bits.
            let first = block.prefixMaximumEnd.partitioningIndex { $0 >= span.start }
            let last = samples.partitioningIndex { $0.startMilliseconds > end }
            guard first < last else { continue }
            addRaw(
                samples[first..<last], roles: block.roles, from: span.start, to: end,
                closed: holdsNow, hour: span.hour, into: &figures)
        }
    }
}
