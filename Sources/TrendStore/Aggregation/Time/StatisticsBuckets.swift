import Foundation

/// One bucket of a statistics query as instants: the `start` and `end` it reports, and the
/// runs of instants it holds (a calendar bucket's runs can differ from `start..<end` where
/// a zone's clock goes back across midnight).
struct BucketSpan {
    let start: Int64
    let end: Int64
    /// The runs of instants, in time order; never empty.
    let runs: DayRuns
}

/// Lays out the buckets of a statistics query: fixed lengths of absolute time
/// from the anchor for minutes and hours; wall-clock dates, runs of seven dates from the
/// anchor's date, or calendar months for days, weeks and months. The range snaps outward
/// to whole buckets: the first holds `from`, the last holds the instant before `to`.
enum StatisticsBuckets {
    /// The most buckets one query may ask for, so memory stays bounded whatever the arguments.
    static let maximumCount = 1_000_000

    /// The buckets covering `[from, to)`, in time order.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` for an empty range, a
    ///   non-positive interval or more than ``maximumCount`` buckets.
    static func layout(
        from: Int64, to: Int64, interval: StatisticsInterval, anchor: Int64?, zone: TimeZone
    ) throws(StoreError) -> [BucketSpan] {
        guard from < to else {
            throw .invalidArgument(.range, reason: "the range ends before it starts, or is empty")
        }
        guard interval.count > 0 else {
            throw .invalidArgument(
                .interval, reason: "the interval must be at least 1, not \(interval.count)")
        }
        let fromDate = LocalDayGrid.date(containing: from, in: zone)
        if let length = interval.fixedLength {
            let origin =
                anchor
                ?? LocalDayGrid(zone: zone, from: fromDate, through: fromDate).bounds(of: fromDate)
                .start
            let first = (from - origin).floorDivided(by: length)
            let last = (to - 1 - origin).floorDivided(by: length)
            try checkCount(last - first + 1)
            return (first...last).map { index in
                let start = origin + index * length
                return BucketSpan(
                    start: start, end: start + length, runs: DayRuns(start..<(start + length)))
            }
        }
        return try calendarBuckets(
            from: from, to: to, fromDate: fromDate, interval: interval, anchor: anchor, zone: zone)
    }

    /// Day, week and month buckets: runs of local dates.
    private static func calendarBuckets(
        from: Int64, to: Int64, fromDate: LocalDate, interval: StatisticsInterval, anchor: Int64?,
        zone: TimeZone
    ) throws(StoreError) -> [BucketSpan] {
        let lastDate = LocalDayGrid.date(containing: to - 1, in: zone)
        let anchorDate = anchor.map { LocalDayGrid.date(containing: $0, in: zone) } ?? fromDate
        // The first date of each bucket from the one holding `fromDate` through the one after
        // the bucket holding `lastDate`.
        var firsts: [LocalDate] = []
        switch interval {
        case .days(let n), .weeks(let n):
            let step = Int64(n) * (interval == .weeks(n) ? 7 : 1)
            let first = (fromDate.dayNumber - anchorDate.dayNumber).floorDivided(by: step)
            let last = (lastDate.dayNumber - anchorDate.dayNumber).floorDivided(by: step)
            try checkCount(last - first + 1)
            firsts = (first...(last + 1)).map {
                LocalDate(dayNumber: anchorDate.dayNumber + $0 * step)
            }
        case .months(let n):
            let step = Int64(n)
            let anchorMonth = monthIndex(of: anchorDate)
            let first = (monthIndex(of: fromDate) - anchorMonth).floorDivided(by: step)
            let last = (monthIndex(of: lastDate) - anchorMonth).floorDivided(by: step)
            try checkCount(last - first + 1)
            firsts = (first...(last + 1)).map { index in
                let month = anchorMonth + index * step
                return LocalDate(
                    dayNumber: CivilDate.dayNumber(
                        year: month.floorDivided(by: 12), month: month.floorModulo(12) + 1, day: 1))
            }
        case .minutes, .hours:
            return []
        }
        guard let gridFirst = firsts.first, let gridLast = firsts.last else { return [] }
        let grid = LocalDayGrid(zone: zone, from: gridFirst, through: gridLast)
        var buckets: [BucketSpan] = []
        buckets.reserveCapacity(firsts.count - 1)
        // Each bucket's first date's runs, found once: they also give the previous bucket's end.
        var firstRuns = grid.pieces(of: gridFirst)
        var start = grid.bounds(of: gridFirst, runs: firstRuns).start
        for index in 0..<(firsts.count - 1) {
            let nextRuns = grid.pieces(of: firsts[index + 1])
            let end = grid.bounds(of: firsts[index + 1], runs: nextRuns).start
            var runs = firstRuns
            for day in (firsts[index].dayNumber + 1)..<firsts[index + 1].dayNumber {
                for run in grid.pieces(of: LocalDate(dayNumber: day)) { runs.append(run) }
            }
            defer {
                start = end
                firstRuns = nextRuns
            }
            guard runs.first != nil else { continue }  // every date skipped by the zone
            buckets.append(BucketSpan(start: start, end: end, runs: runs.sortedByStart()))
        }
        return buckets
    }

    /// Months since year 0: `year × 12 + month − 1`.
    private static func monthIndex(of date: LocalDate) -> Int64 {
        Int64(date.year) * 12 + Int64(date.month) - 1
    }

    private static func checkCount(_ count: Int64) throws(StoreError) {
        guard count <= Int64(maximumCount) else {
            throw .invalidArgument(
                .range,
                reason: "the range holds \(count) buckets; at most \(maximumCount) are allowed")
        }
    }
}
