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

    /// The UTC days the ranges touch, ascending and unique.
    var utcDays: [Int64] {
        var days: [Int64] = []
        var sorted = true
        for (start, end) in ranges where start < end {
            let first = start.floorDivided(by: TimeGrid.day)
            let last = (end - 1).floorDivided(by: TimeGrid.day)
            if let previous = days.last, first < previous { sorted = false }
            let from = sorted ? max(first, (days.last ?? .min) + 1) : first
            if from <= last { days.append(contentsOf: from...last) }
        }
        // Ranges come in time order except where a date resumes after the next one began.
        return sorted ? days : Array(Set(days)).sorted()
    }
}
