import LMDB

/// The running figures of one bucket.
struct BucketFigures {
    /// Samples starting in the bucket.
    var count = 0
    /// The prorated sum (cumulative) or the members' sum (discrete).
    var sum = 0.0
    /// Whether any sample overlaps the bucket (cumulative) or starts in it (discrete).
    var hasData = false
    var minimum = Double.infinity
    var maximum = -Double.infinity
    var latest: Sample?

    /// Adds a discrete member, or a slot's figures standing for `count` members.
    @inline(__always)
    mutating func addMembers(
        count: Int, sum: Double, minimum: Double, maximum: Double, latest: Sample
    ) {
        self.count += count
        self.sum += sum
        hasData = true
        self.minimum = Swift.min(self.minimum, minimum)
        self.maximum = Swift.max(self.maximum, maximum)
        if self.latest.map({ SlotExtremes.isLater(latest, than: $0) }) ?? true {
            self.latest = latest
        }
    }
}

/// Computes interval statistics of one series (SPEC §3.4) from its rollups: the
/// quarter-hours inside each run of a bucket are rollup slots, and only the parts of a run
/// that are not quarter-aligned (an anchor off the grid, buckets shorter than a
/// quarter-hour, a historical offset) decode raw samples.
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
    ) throws -> [BucketFigures] {
        var result: [BucketFigures] = []
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
            let days =
                usesRollups
                ? SeriesAggregator.utcDays(
                    covering: group.lazy.flatMap(\.runs).map { ($0.lowerBound, $0.upperBound) })
                : []
            // The loader of the series' kind, as the one way slots are added.
            let addSlots: (Int64, Int64, inout BucketFigures) -> Void
            switch record.kind {
            case .cumulative:
                let rows = try RollupRows(
                    storage: storage, record: record, days: days, includesStarts: true, txn: txn)
                addSlots = { Self.addCumulativeSlots(rows, from: $0, to: $1, into: &$2) }
            case .discrete:
                let rows = try DiscreteRows(
                    storage: storage, record: record, days: days, txn: txn)
                addSlots = { Self.addDiscreteSlots(rows, from: $0, to: $1, into: &$2) }
            }
            for bucket in group {
                var figures = BucketFigures()
                for run in bucket.runs {
                    try add(run, into: &figures, txn: txn, addSlots: addSlots)
                }
                result.append(figures)
            }
            groupStart = groupEnd
        }
        return result
    }

    /// Adds the samples of `run`: its quarter-aligned middle through `addSlots(from, to,
    /// figures)`, its unaligned ends from raw samples.
    @inline(__always)
    private func add<T: ReadableTransaction & ~Copyable>(
        _ run: Range<Int64>, into figures: inout BucketFigures, txn: borrowing T,
        addSlots: (Int64, Int64, inout BucketFigures) -> Void
    ) throws {
        let quarter = TimeGrid.quarterHour
        let alignedStart = (run.lowerBound + quarter - 1).floorDivided(by: quarter) * quarter
        let alignedEnd = run.upperBound.floorDivided(by: quarter) * quarter
        guard usesRollups, alignedStart < alignedEnd else {
            try addRaw(run, into: &figures, txn: txn)
            return
        }
        if run.lowerBound < alignedStart {
            try addRaw(run.lowerBound..<alignedStart, into: &figures, txn: txn)
        }
        addSlots(alignedStart, alignedEnd, &figures)
        if alignedEnd < run.upperBound {
            try addRaw(alignedEnd..<run.upperBound, into: &figures, txn: txn)
        }
    }

    /// Adds the samples of `range` from raw samples.
    private func addRaw<T: ReadableTransaction & ~Copyable>(
        _ range: Range<Int64>, into figures: inout BucketFigures, txn: borrowing T
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
            figures.sum += span.hourly[0]
            figures.count += span.count
            figures.hasData = figures.hasData || span.hasData
        case .discrete:
            for sample in try raw.rawSamples(
                startingFrom: range.lowerBound, through: range.upperBound - 1, txn: txn)
            {
                figures.addMembers(
                    count: 1, sum: sample.value, minimum: sample.value, maximum: sample.value,
                    latest: sample)
            }
        }
    }

    /// Adds the rollup slots of `[from, to)` (both quarter-aligned) of a cumulative series.
    @inline(__always)
    private static func addCumulativeSlots(
        _ rows: RollupRows, from: Int64, to: Int64, into figures: inout BucketFigures
    ) {
        forEachSlotRange(from: from, to: to, base: rows.base(ofDay:)) { slots in
            for slot in slots {
                figures.sum += rows.prorated[slot]
                figures.count += Int(rows.startCounts[slot])
                figures.hasData = figures.hasData || rows.touched[slot]
            }
        }
    }

    /// Adds the rollup slots of `[from, to)` (both quarter-aligned) of a discrete series.
    @inline(__always)
    private static func addDiscreteSlots(
        _ rows: DiscreteRows, from: Int64, to: Int64, into figures: inout BucketFigures
    ) {
        forEachSlotRange(from: from, to: to, base: rows.base(ofDay:)) { slots in
            for slot in slots where rows.counts[slot] > 0 {
                figures.addMembers(
                    count: Int(rows.counts[slot]), sum: rows.sums[slot],
                    minimum: rows.minimums[slot], maximum: rows.maximums[slot],
                    latest: rows.latest[slot])
            }
        }
    }

    /// Calls `body` with the flat-array slot range of each stored UTC day `[from, to)` crosses.
    @inline(__always)
    private static func forEachSlotRange(
        from: Int64, to: Int64, base: (Int64) -> Int?, _ body: (Range<Int>) -> Void
    ) {
        var instant = from
        while instant < to {
            let utcDay = instant.floorDivided(by: TimeGrid.day)
            let dayStart = utcDay * TimeGrid.day
            let upTo = min(to, dayStart + TimeGrid.day)
            if let base = base(utcDay) {
                body(
                    (base + Int((instant - dayStart) / TimeGrid.quarterHour))..<(base
                        + Int((upTo - dayStart) / TimeGrid.quarterHour)))
            }
            instant = upTo
        }
    }
}
