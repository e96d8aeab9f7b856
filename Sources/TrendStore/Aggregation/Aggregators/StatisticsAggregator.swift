import LMDB

/// Computes interval statistics of one series from its rollups: the
/// quarter-hours inside each run of a bucket are rollup slots (whole summary hours, see
/// ``HourPhase``, hour summaries), and only the parts of a run that are not quarter-aligned
/// (an anchor off the grid, buckets shorter than a quarter-hour, a historical offset)
/// decode raw samples. In a store of the hour grid (``RollupGrid/hour``) every part that is
/// not a whole summary hour does.
struct StatisticsAggregator {
    let storage: SampleStorage
    let record: SeriesRecord
    /// Reads raw samples through the decoded-block cache.
    private let raw: SeriesAggregator
    /// Which level answers each part of a run: summaries, slots or raw samples.
    private let plan: RollupPlan

    /// An aggregator of `record`, reading rollups unless `usesRollups` is `false`.
    init(storage: SampleStorage, record: SeriesRecord, usesRollups: Bool = true) {
        self.storage = storage
        self.record = record
        raw = SeriesAggregator(storage: storage, record: record, usesRollups: usesRollups)
        plan = raw.plan
    }

    /// The figures of each bucket, computed a year of rollup rows at a time so memory stays flat.
    func figures<T: ReadableTransaction & ~Copyable>(
        of buckets: [BucketSpan], txn: borrowing T
    ) throws -> [RunFigures] {
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
            if plan.usesRollups {
                for run in group.lazy.flatMap(\.runs) {
                    let parts = plan.parts(of: run)
                    parts.forEachSlotRange { slotRanges.append($0, $1) }
                    if let hours = parts.hours { hourRanges.append(hours) }
                }
            }
            let slots = try SlotFigures(
                storage: storage, record: record, ranges: slotRanges, txn: txn)
            try HourRows.withRows(
                from: plan.readsSummaries ? storage : nil, record: record,
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
        let parts = plan.parts(of: run)
        // Without rows (the hour grid) only hour summaries answer.
        guard parts.readsRollups, let aligned = parts.aligned else {
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
            let samples = try raw.rawSamples(
                startingFrom: range.lowerBound - record.maximumDuration,
                through: range.upperBound - 1, txn: txn)
            SeriesAggregator.addRaw(
                samples.samples[...], roles: samples.roles, from: range.lowerBound,
                to: range.upperBound, closed: false, hour: 0, into: &span)
            figures.addProrated(span.hourly[0], count: UInt64(span.count), touched: span.hasData)
        case .discrete:
            try raw.forEachRawSample(
                startingFrom: range.lowerBound, through: range.upperBound - 1, txn: txn
            ) { sample, _ in
                figures.addMembers(
                    count: 1, sum: sample.value, minimum: sample.value, maximum: sample.value,
                    latest: sample)
            }
        }
    }
}
