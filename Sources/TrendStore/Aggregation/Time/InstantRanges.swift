/// The ranges of instants a query is about to read, noted in time order, and the UTC days
/// they touch: what it loads rollup rows or hour summaries for.
struct InstantRanges {
    private var ranges: [(start: Int64, end: Int64)] = []

    /// Notes `[start, end)`, extending the last range when they touch, so a run of
    /// consecutive days is one range. Empty ranges touch no day.
    mutating func append(_ start: Int64, _ end: Int64) {
        if let last = ranges.last, last.end == start {
            ranges[ranges.count - 1].end = end
        } else {
            ranges.append((start, end))
        }
    }

    /// Notes `run`.
    mutating func append(_ run: Range<Int64>) { append(run.lowerBound, run.upperBound) }

    /// The ranges, sorted and merged where they overlap or touch; empty ones left out.
    func merged() -> [(start: Int64, end: Int64)] {
        // Ranges come in time order except where a date resumes after the next one began.
        let ordered =
            zip(ranges, ranges.dropFirst()).allSatisfy { $0.start <= $1.start }
            ? ranges : ranges.sorted { $0.start < $1.start }
        var result: [(start: Int64, end: Int64)] = []
        for (start, end) in ordered where start < end {
            if let last = result.last, start <= last.end {
                result[result.count - 1].end = max(last.end, end)
            } else {
                result.append((start, end))
            }
        }
        return result
    }

    /// The UTC days the ranges touch, ascending and unique.
    var utcDays: [Int64] { Self.utcDays(touchedBy: merged()) }

    /// The UTC days the ranges touch, each with the slots of its rollup row they cover.
    var daySlots: DaySlots { DaySlots(covering: merged()) }

    /// The UTC days that `ranges` (sorted and disjoint, as ``merged()`` gives) touch,
    /// ascending and unique.
    static func utcDays(touchedBy ranges: [(start: Int64, end: Int64)]) -> [Int64] {
        DaySlots(covering: ranges).days
    }
}

/// The UTC days a query reads rollup rows of, ascending and unique, each with the slots
/// (quarter-hours of its day) from the first a range covers to the last: the part of its
/// row a loader decodes.
struct DaySlots {
    private(set) var days: [Int64] = []
    private var slots: [Range<Int>] = []

    /// Every slot of each of `days` (sorted, unique).
    init(wholeDays days: [Int64]) {
        self.days = days
        slots = Array(repeating: 0..<DayRollup.slotCount, count: days.count)
    }

    /// The days and slots `ranges` (sorted and disjoint, as ``InstantRanges/merged()``
    /// gives) cover; a slot partly covered counts.
    init(covering ranges: [(start: Int64, end: Int64)]) {
        for (start, end) in ranges where start < end {
            var day = start.floorDivided(by: TimeGrid.day)
            while day * TimeGrid.day < end {
                let dayStart = day * TimeGrid.day
                let first = Int((max(start, dayStart) - dayStart) / TimeGrid.quarterHour)
                let last = Int(
                    (min(end, dayStart + TimeGrid.day) - 1 - dayStart) / TimeGrid.quarterHour)
                if days.last == day {
                    slots[slots.count - 1] =
                        min(slots[slots.count - 1].lowerBound, first)..<(last + 1)
                } else {
                    days.append(day)
                    slots.append(first..<(last + 1))
                }
                day += 1
            }
        }
    }

    /// The slots of `day`; every slot when it is not one of ``days``.
    func slots(ofDay day: Int64) -> Range<Int> {
        var low = 0
        var high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle] < day { low = middle + 1 } else { high = middle }
        }
        return low < days.count && days[low] == day ? slots[low] : 0..<DayRollup.slotCount
    }
}
