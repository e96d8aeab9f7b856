/// One run of a local date's instants, `[start, end)`, and the date's place in its range.
struct DayRun {
    /// The date's index from the first date of the range.
    let day: Int
    let start: Int64
    var end: Int64
}

extension LocalDayGrid {
    /// The runs of instants of every date of `first...last`, in time order, touching runs of
    /// one date merged: what a heatmap walks once for all its dates.
    ///
    /// One run per date except where the clock goes back across midnight (a date resumes
    /// after the next one began, so its runs interleave with the next date's) and none for
    /// a date the zone skips.
    func dayRuns(from first: LocalDate, through last: LocalDate) -> [DayRun] {
        guard first <= last else { return [] }
        var runs: [DayRun] = []
        runs.reserveCapacity(Int(last.dayNumber - first.dayNumber) + 2)
        var ordered = true
        var period = offsets.period(containing: first.dayNumber * TimeGrid.day - Self.offsetReach)
        for number in first.dayNumber...last.dayNumber {
            let day = Int(number - first.dayNumber)
            // Almost every date lies far inside one offset's period: one run, no search.
            let wallStart = number * TimeGrid.day
            while period + 1 < offsets.periodCount,
                offsets.bounds(ofPeriod: period).end <= wallStart - Self.offsetReach
            {
                period += 1
            }
            let (periodStart, periodEnd) = offsets.bounds(ofPeriod: period)
            if periodStart <= wallStart - Self.offsetReach,
                periodEnd > wallStart + TimeGrid.day + Self.offsetReach
            {
                let offset = offsets.offsets[period]
                runs.append(
                    DayRun(
                        day: day, start: wallStart - offset,
                        end: wallStart + TimeGrid.day - offset))
                continue
            }
            forEachPiece(of: LocalDate(dayNumber: number)) { from, to, _ in
                if let previous = runs.last {
                    if previous.day == day && previous.end == from {
                        runs[runs.count - 1].end = to
                        return
                    }
                    if previous.start > from { ordered = false }
                }
                runs.append(DayRun(day: day, start: from, end: to))
            }
        }
        if !ordered { runs.sort { $0.start < $1.start } }
        return runs
    }
}
