import LMDB

/// Computes interval statistics of one series (SPEC §3.4) from its rollups: the
/// quarter-hours inside each run of a bucket are rollup slots (whole summary hours, see
/// ``HourPhase``, hour summaries), and only the parts of a run that are not quarter-aligned
/// (an anchor off the grid, buckets shorter than a quarter-hour, a historical offset)
/// decode raw samples. In a store of the hour grid (``RollupGrid/hour``) every part that is
/// not a whole summary hour does.
struct StatisticsAggregator {
    let storage: SampleStorage
    let record: SeriesRecord
    /// Whether aligned spans read rollups (`true`) or raw samples like unaligned ones.
    let usesRollups: Bool
    /// Reads raw samples through the decoded-block cache.
    private let raw: SeriesAggregator

    init(storage: SampleStorage, record: SeriesRecord, usesRollups: Bool = true) {
        self.storage = storage
        self.record = record
        self.usesRollups = usesRollups
        raw = SeriesAggregator(storage: storage, record: record)
    }

    /// The figures of each bucket, computed a year of rollup rows at a time so memory stays flat.
    func figures<T: ReadableTransaction & ~Copyable>(
        of buckets: [BucketSpan], txn: borrowing T
    ) throws -> [RunFigures] {
        let summarySource = usesRollups && storage.readsHourSummaries ? storage : nil
        var result: [RunFigures] = []
        result.reserveCapacity(buckets.count)
        var groupStart = 0
        while groupStart < buckets.count {
            var groupEnd = groupStart + 1
            let firstDay = buckets[groupStart].start.floorDivided(by: TimeGrid.day)
            while groupEnd < buckets.count
                && buckets[groupEnd].end.floorDivided(by: TimeGrid.day) - firstDay < 400
            {
                groupEnd += 1
            }
            let group = buckets[groupStart..<groupEnd]
            var slotRanges = InstantRanges()
            var hourRanges = InstantRanges()
            if usesRollups {
                for run in group.lazy.flatMap(\.runs) {
                    let parts = AlignedParts(
                        run, storage: storage, wholeHours: summarySource != nil)
                    parts.forEachSlotRange { slotRanges.append($0, $1) }
                    if let hours = parts.hours { hourRanges.append(hours) }
                }
            }
            let slots = try SlotFigures(
                storage: storage, record: record, ranges: slotRanges, txn: txn)
            try HourRows.withRows(
                from: summarySource, record: record,
                days: hourRanges.utcDays, txn: txn
            ) { hours in
                for bucket in group {
                    var figures = RunFigures()
                    for run in bucket.runs {
                        try add(run, into: &figures, txn: txn, hours: hours, slots: slots)
                    }
                    result.append(figures)
                }
            }
            groupStart = groupEnd
        }
        return result
    }

    /// Adds the samples of `run`: its quarter-aligned middle one UTC hour at a time (whole
    /// hours from `hours` when given, other pieces from `slots`, the same bits either
    /// way), its unaligned ends from raw samples.
    @inline(__always)
    private func add<T: ReadableTransaction & ~Copyable>(
        _ run: Range<Int64>, into figures: inout RunFigures, txn: borrowing T,
        hours: HourRows?, slots: SlotFigures
    ) throws {
        let parts = AlignedParts(run, storage: storage, wholeHours: hours != nil)
        // Without rows (the hour grid) only hour summaries answer.
        guard usesRollups, let aligned = parts.aligned,
            storage.rollupGrid.keepsEveryRow || parts.hours == aligned
        else {
            try addRaw(run, into: &figures, txn: txn)
            return
        }
        if run.lowerBound < aligned.lowerBound {
            try addRaw(run.lowerBound..<aligned.lowerBound, into: &figures, txn: txn)
        }
        if let hours, let whole = parts.hours {
            addSlots(from: aligned.lowerBound, to: whole.lowerBound, into: &figures, slots)
            hours.add(hoursFrom: whole.lowerBound, to: whole.upperBound, into: &figures)
            addSlots(from: whole.upperBound, to: aligned.upperBound, into: &figures, slots)
        } else {
            addSlots(from: aligned.lowerBound, to: aligned.upperBound, into: &figures, slots)
        }
        if aligned.upperBound < run.upperBound {
            try addRaw(aligned.upperBound..<run.upperBound, into: &figures, txn: txn)
        }
    }

    /// Adds the slots of `[from, to)` (both quarter-aligned) one UTC hour's piece at a time.
    @inline(__always)
    private func addSlots(
        from: Int64, to: Int64, into figures: inout RunFigures,
        _ slots: SlotFigures
    ) {
        var instant = from
        while instant < to {
            let upTo = min(to, (instant.floorDivided(by: TimeGrid.hour) + 1) * TimeGrid.hour)
            figures.add(slots.figures(from: instant, to: upTo), kind: record.kind)
            instant = upTo
        }
    }

    /// Adds the samples of `range` from raw samples.
    private func addRaw<T: ReadableTransaction & ~Copyable>(
        _ range: Range<Int64>, into figures: inout RunFigures, txn: borrowing T
    ) throws {
        switch record.kind {
        case .cumulative:
            // The proration of curves' unaligned spans, into one bucket.
            var span = LocalDayFigures(hourly: [0])
            SeriesAggregator.addRaw(
                try raw.rawSamples(
                    startingFrom: range.lowerBound - record.maximumDuration,
                    through: range.upperBound - 1, txn: txn),
                from: range.lowerBound, to: range.upperBound, closed: false, hour: 0,
                into: &span)
            figures.addProrated(span.hourly[0], count: UInt64(span.count), touched: span.hasData)
        case .discrete:
            try raw.forEachRawSample(
                startingFrom: range.lowerBound, through: range.upperBound - 1, txn: txn
            ) { sample in
                figures.addMembers(
                    count: 1, sum: sample.value, minimum: sample.value, maximum: sample.value,
                    latest: sample)
            }
        }
    }
}

/// How a bucket's run splits: its middle aligned to the store's rollup grid (`aligned`:
/// quarter-hours, or summary hours in a store of the hour grid) and, within it, the whole
/// summary hours (`hours`) that hour summaries answer; the rest of `aligned` is slots.
private struct AlignedParts {
    let aligned: Range<Int64>?
    let hours: Range<Int64>?

    init(_ run: Range<Int64>, storage: SampleStorage, wholeHours: Bool) {
        let phase = storage.hourPhase
        let start: Int64
        let end: Int64
        if storage.rollupGrid.keepsEveryRow {
            let quarter = TimeGrid.quarterHour
            start = (run.lowerBound + quarter - 1).floorDivided(by: quarter) * quarter
            end = run.upperBound.floorDivided(by: quarter) * quarter
        } else {
            start = phase.hourStart(atOrAfter: run.lowerBound)
            end = phase.hourStart(containing: run.upperBound)
        }
        aligned = start < end ? start..<end : nil
        let hourStart = phase.hourStart(atOrAfter: start)
        let hourEnd = phase.hourStart(containing: end)
        hours = wholeHours && aligned != nil && hourStart < hourEnd ? hourStart..<hourEnd : nil
    }

    /// Calls `body(from, to)` with the parts of `aligned` outside `hours`, in time order.
    @inline(__always)
    func forEachSlotRange(_ body: (Int64, Int64) -> Void) {
        guard let aligned else { return }
        guard let hours else { return body(aligned.lowerBound, aligned.upperBound) }
        body(aligned.lowerBound, hours.lowerBound)
        body(hours.upperBound, aligned.upperBound)
    }
}
