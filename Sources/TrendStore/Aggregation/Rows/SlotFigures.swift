import LMDB

/// The figures of each rollup slot a statistics query reads: the quarter-hours of the
/// ranges noted in an ``InstantRanges``, decoded from their days' rows, each row parsed
/// only from its first wanted slot to its last (the slots before are skipped undecoded).
/// A slot without a row reads as empty.
///
/// A partial hour at a bucket's edge thus costs the slots it needs, not a whole decoded day.
struct SlotFigures {
    /// A run of wanted slots: slot numbers (instant ÷ 15 minutes) `start..<end`, whose
    /// figures begin at `position` in `figures`.
    private struct Run {
        let start: Int64
        let end: Int64
        let position: Int
    }

    private let kind: SeriesKind
    /// The wanted slots, sorted and disjoint.
    private var runs: [Run] = []
    private var figures: [RunFigures] = []
    private static let slotsPerDay = Int64(DayRollup.slotCount)

    /// Loads the slots of `ranges` (quarter-aligned) of `record`.
    init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, ranges: InstantRanges, txn: borrowing T
    ) throws {
        kind = record.kind
        let merged = ranges.merged()
        for (start, end) in merged {
            let first = start.floorDivided(by: TimeGrid.quarterHour)
            let last = (end - 1).floorDivided(by: TimeGrid.quarterHour)
            runs.append(Run(start: first, end: last + 1, position: figures.count))
            figures.append(contentsOf: repeatElement(RunFigures(), count: Int(last - first + 1)))
        }
        let days = InstantRanges.utcDays(touchedBy: merged)
        guard !days.isEmpty else { return }
        let isWanted = { (day: Int64) in self.hasRun(inDay: day) }
        try storage.forEachDayRow(of: record, days: days, isWanted: isWanted, in: txn) {
            day, row in
            try load(row, day: day, record: record)
        }
    }

    /// The figures of the slots of `[from, to)` (quarter-aligned, within one noted range),
    /// added in slot order.
    @inline(__always)
    func figures(from: Int64, to: Int64) -> RunFigures {
        var piece = RunFigures()
        let first = from.floorDivided(by: TimeGrid.quarterHour)
        let end = to.floorDivided(by: TimeGrid.quarterHour)
        let index = firstRun(endingAfter: first)
        guard index < runs.count, runs[index].start <= first else { return piece }
        let run = runs[index]
        let position = run.position + Int(first - run.start)
        for offset in 0..<Int(min(end, run.end) - first) {
            piece.add(figures[position + offset], kind: kind)
        }
        return piece
    }

    /// The index of the first run that ends after slot number `slot` (the run count when none does).
    @inline(__always)
    private func firstRun(endingAfter slot: Int64) -> Int {
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].end <= slot { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether some wanted slot lies in UTC day `day`.
    private func hasRun(inDay day: Int64) -> Bool {
        let index = firstRun(endingAfter: day * Self.slotsPerDay)
        return index < runs.count && runs[index].start < (day + 1) * Self.slotsPerDay
    }

    /// Stores the wanted slots of `row`, the row of UTC `day`.
    private mutating func load(
        _ row: UnsafeRawBufferPointer, day: Int64, record: SeriesRecord
    ) throws {
        let dayFirst = day * Self.slotsPerDay
        let dayEnd = dayFirst + Self.slotsPerDay
        var index = firstRun(endingAfter: dayFirst)
        guard index < runs.count, runs[index].start < dayEnd else { return }
        let firstSlot = max(runs[index].start, dayFirst)
        // The last wanted slot of the day.
        var lastSlot = dayFirst
        for run in runs[index...] {
            guard run.start < dayEnd else { break }
            lastSlot = min(run.end, dayEnd) - 1
        }
        // Visits the wanted slots among the row's slots, which come in ascending order.
        func store(_ slot: Int, _ update: (inout RunFigures) -> Void) {
            let number = dayFirst + Int64(slot)
            while index < runs.count && runs[index].end <= number { index += 1 }
            guard index < runs.count, runs[index].start <= number else { return }
            update(&figures[runs[index].position + Int(number - runs[index].start)])
        }
        // The slots of the day from its first wanted one to its last.
        let wanted = Int(firstSlot - dayFirst)..<Int(lastSlot - dayFirst + 1)
        do {
            switch kind {
            case .discrete:
                try RollupRowCodec.forEachDiscreteSlot(row, day: day, in: wanted) {
                    slot, count, sum, extremes in
                    store(slot) {
                        $0.addMembers(
                            count: UInt64(count), sum: sum, minimum: extremes.minimum,
                            maximum: extremes.maximum, latest: extremes.latest)
                    }
                }
            case .cumulative:
                try RollupRowCodec.forEachSlot(row, in: wanted) { slot, prorated, count, _ in
                    store(slot) { $0.addProrated(prorated, count: UInt64(count), touched: true) }
                }
            }
        } catch {
            throw StoreError.damagedRollup(
                series: record.name, dayStart: day * TimeGrid.day, reason: error.reason)
        }
    }
}
