import LMDB

/// Heatmap figures: the count and start sum of each local day.
extension SeriesAggregator {
    /// The count and start sum of each of `dayCount` days, given their runs in time order
    /// (``LocalDayGrid/dayRuns(from:through:)``); for heatmaps.
    ///
    /// Needs no hour spans. In a store that keeps every row, a dense series reads each
    /// quarter-aligned run from rollup slots; every other run (a historical offset, a
    /// sparse series, any run of a store of the hour grid) is counted from raw samples, all
    /// of them in one walk over the blocks (a sparse series costs one seek, not one per
    /// day). Each day adds its runs in time order.
    func dayTotals<T: ReadableTransaction & ~Copyable>(
        of runs: [DayRun], dayCount: Int, txn: borrowing T
    ) throws -> (counts: [Int], sums: [Double]) {
        var totals = DayTotals(
            runs: runs, dayCount: dayCount, plan: plan,
            readsSlots: try slotsAreCheaper(for: runs, txn: txn))
        var ranges = InstantRanges()
        var firstRaw: Int64?
        var lastRaw: Int64?
        for (run, fromSlots) in zip(runs, totals.fromSlots) {
            if fromSlots {
                ranges.append(run.start, run.end)
            } else {
                firstRaw = firstRaw ?? run.start
                lastRaw = run.end
            }
        }
        let rows = try RollupRows(
            storage: storage, record: record, days: ranges.daySlots, includesStarts: true,
            txn: txn)
        let addSlots = { (run: DayRun, count: inout Int, sum: inout Double) in
            var figures = LocalDayFigures(hourly: [])
            figures.count = count
            figures.startSum = sum
            self.addSlots(rows, from: run.start, to: run.end, hour: 0, into: &figures)
            count = figures.count
            sum = figures.startSum
        }
        if let firstRaw, let lastRaw {
            try forEachRawSample(
                startingFrom: firstRaw, through: lastRaw - 1, startsOnly: true, txn: txn
            ) {
                sample, role in
                // A piece of a merged sample counts where its head starts, not again.
                if role != .piece {
                    totals.add(sample, counts: role != .uncountedHead, slots: addSlots)
                }
            }
        }
        totals.finish(slots: addSlots)
        return (totals.counts, totals.sums)
    }

    /// Whether rollup slots are cheaper than raw samples for the counts of `runs`: a store
    /// that keeps every day's row, and a series dense enough (more than
    /// ``slotsPayFromSamplesPerDay`` samples per day of the range, by its blocks' headers)
    /// that reading a row per day beats walking its samples once. A sparse series (an
    /// activity a day) is walked, as on the hour grid.
    private func slotsAreCheaper<T: ReadableTransaction & ~Copyable>(
        for runs: [DayRun], txn: borrowing T
    ) throws -> Bool {
        guard plan.readsSlots, let first = runs.first, let last = runs.last else { return false }
        return try storage.holdsMoreSamples(
            than: Self.slotsPayFromSamplesPerDay * runs.count, of: record,
            startingFrom: first.start, through: last.end - 1, in: txn)
    }

    /// Samples per day above which a day's rollup row is cheaper to read than its samples.
    static let slotsPayFromSamplesPerDay = 48
}

/// The figures of each day, filled run by run in time order as one walk of raw samples passes.
private struct DayTotals {
    typealias SlotAdder = (DayRun, inout Int, inout Double) -> Void

    let runs: [DayRun]
    /// Whether rollup slots answer each run.
    let fromSlots: [Bool]
    var counts: [Int]
    var sums: [Double]
    /// The first run not yet passed: every slot run before it has been added.
    private var next = 0

    init(runs: [DayRun], dayCount: Int, plan: RollupPlan, readsSlots: Bool) {
        self.runs = runs
        fromSlots =
            readsSlots
            ? runs.map { plan.readsStartsFromSlots($0.start..<$0.end) }
            : Array(repeating: false, count: runs.count)
        counts = Array(repeating: 0, count: dayCount)
        sums = Array(repeating: 0, count: dayCount)
    }

    /// Adds `sample` to the day of the raw run holding its start (if any), after adding the
    /// slot runs before that run; it adds to the day's count when it `counts` as a sample.
    @inline(__always)
    mutating func add(_ sample: Sample, counts: Bool, slots: SlotAdder) {
        let start = sample.startMilliseconds
        while next < runs.count, fromSlots[next] || runs[next].end <= start {
            passRun(slots: slots)
        }
        guard next < runs.count, runs[next].start <= start else { return }
        if counts { self.counts[runs[next].day] += 1 }
        sums[runs[next].day] += sample.value
    }

    /// Adds the slot runs not passed yet.
    mutating func finish(slots: SlotAdder) {
        while next < runs.count { passRun(slots: slots) }
    }

    /// Passes run `next`, adding its slots when rollup slots answer it.
    @inline(__always)
    private mutating func passRun(slots: SlotAdder) {
        let run = runs[next]
        if fromSlots[next] { slots(run, &counts[run.day], &sums[run.day]) }
        next += 1
    }
}
