import Foundation

/// One wall-clock hour's instants within a local day: `[start, end)` in ms since 1970.
struct HourSpan: Equatable {
    /// The local wall-clock hour, 0…23.
    let hour: Int
    let start: Int64
    let end: Int64

    /// Whether both ends fall on quarter-hours, so rollup slots cover the span exactly.
    var isQuarterAligned: Bool {
        start.floorModulo(TimeGrid.quarterHour) == 0 && end.floorModulo(TimeGrid.quarterHour) == 0
    }
}

/// Maps local dates of one zone to instants, computed from the zone's offsets once per query.
///
/// Local day D holds the instants whose wall-clock time (instant + offset) falls on D,
/// and hour bucket h those whose wall-clock hour is h. This is exact for any zone,
/// including 30- and 45-minute offsets and changes at midnight.
struct LocalDayGrid {
    let zone: TimeZone
    let offsets: ZoneOffsets
    /// Offsets lie within ±26 hours on Earth; searching this far covers every day's instants.
    static let offsetReach: Int64 = 26 * TimeGrid.hour

    /// A grid for the dates `first...last` (and the instants around them) in `zone`.
    init(zone: TimeZone, from first: LocalDate, through last: LocalDate) {
        self.zone = zone
        offsets = ZoneOffsetsCache.offsets(
            for: zone, from: first.dayNumber * TimeGrid.day - 2 * Self.offsetReach,
            to: (last.dayNumber + 1) * TimeGrid.day + 2 * Self.offsetReach)
    }

    /// The local date holding `instant` in `zone`, from a grid of the days around it.
    static func date(containing instant: Int64, in zone: TimeZone) -> LocalDate {
        let utcDay = instant.floorDivided(by: TimeGrid.day)
        return LocalDayGrid(
            zone: zone, from: LocalDate(dayNumber: utcDay - 1),
            through: LocalDate(dayNumber: utcDay + 1)
        )
        .date(containing: instant)
    }

    /// The local date holding `instant`.
    func date(containing instant: Int64) -> LocalDate {
        LocalDate(dayNumber: (instant + offsets.offset(at: instant)).floorDivided(by: TimeGrid.day))
    }

    /// The runs of instants whose wall-clock date is `date`, in time order.
    ///
    /// Usually one run, `[first instant of date, first instant of the next date)`; two or
    /// more where the clock goes back across midnight (the date resumes after the next
    /// one began), none for a date the zone skips. Every instant lies in the runs of
    /// exactly one date.
    func pieces(of date: LocalDate) -> DayRuns {
        var runs = DayRuns()
        forEachPiece(of: date) { from, to, _ in runs.append(from..<to) }
        return runs
    }

    /// The smallest range holding every instant of `date`: from its first instant to the
    /// end of its last run. For cache windows, which may cover more than the date itself.
    ///
    /// Empty, at where its midnight would have been, for a date the zone skips.
    func bounds(of date: LocalDate) -> (start: Int64, end: Int64) {
        bounds(of: date, runs: pieces(of: date))
    }

    /// ``bounds(of:)`` from the date's runs (``pieces(of:)``), when the caller has them.
    func bounds(of date: LocalDate, runs: DayRuns) -> (start: Int64, end: Int64) {
        guard let first = runs.first, let last = runs.last else { return skippedDay(date) }
        return (first.lowerBound, last.upperBound)
    }

    /// Appends to `spans` the hour spans of `date` in time order (none for a date the zone
    /// skips), reusing its storage: what a query over thousands of days calls many times
    /// without allocating.
    func appendSpans(of date: LocalDate, to spans: inout [HourSpan]) {
        let wallStart = date.dayNumber * TimeGrid.day
        forEachPiece(of: date) { from, to, offset in
            let firstHour = Int((from + offset - wallStart) / TimeGrid.hour)
            for hour in firstHour..<24 {
                let hourStart = wallStart + Int64(hour) * TimeGrid.hour - offset
                if hourStart >= to { break }
                let spanStart = max(from, hourStart)
                let spanEnd = min(to, hourStart + TimeGrid.hour)
                if spanStart < spanEnd {
                    spans.append(HourSpan(hour: hour, start: spanStart, end: spanEnd))
                }
            }
        }
    }

    /// The first instant of `date` when the date is 24 hours under one offset starting on
    /// a quarter-hour (every date of every modern zone but its transition days), else
    /// `nil`. Its hour spans are then the 24 hours from there: a query over many days reads
    /// them without forming them.
    @inline(__always)
    func regularStart(of date: LocalDate) -> Int64? {
        var start: Int64?
        var pieces = 0
        forEachPiece(of: date) { from, to, _ in
            pieces += 1
            start =
                to - from == TimeGrid.day && from.floorModulo(TimeGrid.quarterHour) == 0
                ? from : nil
        }
        return pieces == 1 ? start : nil
    }

    /// Calls `body(from, to, offset)` for each run of instants of `date` under one offset, in time order.
    func forEachPiece(of date: LocalDate, _ body: (Int64, Int64, Int64) -> Void) {
        let wallStart = date.dayNumber * TimeGrid.day
        let wallEnd = wallStart + TimeGrid.day
        var period = offsets.period(containing: wallStart - Self.offsetReach)
        while period < offsets.periodCount {
            let (periodStart, periodEnd) = offsets.bounds(ofPeriod: period)
            if periodStart > wallEnd + Self.offsetReach { break }
            let offset = offsets.offsets[period]
            let from = max(periodStart, wallStart - offset)
            let to = min(periodEnd, wallEnd - offset)
            if from < to { body(from, to, offset) }
            period += 1
        }
    }

    /// The empty range of a date the zone skips, placed where its midnight would have been.
    private func skippedDay(_ date: LocalDate) -> (start: Int64, end: Int64) {
        let wallStart = date.dayNumber * TimeGrid.day
        let instant = wallStart - offsets.offset(at: wallStart)
        return (instant, instant)
    }
}

/// The runs of instants of one local date or statistics bucket, in time order: one run for
/// almost every date (held without allocating), more where the clock goes back across
/// midnight, none for a date the zone skips.
struct DayRuns: Sequence {
    /// The first run, or `nil` for a skipped date.
    private(set) var first: Range<Int64>?
    /// The runs after the first, in time order: empty for almost every date.
    private(set) var others: [Range<Int64>] = []

    /// The last run, or `nil` for a skipped date.
    var last: Range<Int64>? { others.last ?? first }

    /// No runs yet.
    init() {}

    /// The one run `run`.
    init(_ run: Range<Int64>) { first = run }

    /// The runs in time order, for runs appended by date where a date resumed after the
    /// next one began; touching runs stay apart, as appended.
    func sortedByStart() -> DayRuns {
        guard let first, !others.isEmpty else { return self }
        var sorted = DayRuns()
        let all = ([first] + others).sorted { $0.lowerBound < $1.lowerBound }
        sorted.first = all[0]
        sorted.others = Array(all.dropFirst())
        return sorted
    }

    /// Iterates the runs, first to last, without allocating.
    struct Iterator: IteratorProtocol {
        fileprivate let runs: DayRuns
        /// The next run's index in `others`; −1 for `first`.
        fileprivate var index = -1

        mutating func next() -> Range<Int64>? {
            defer { index += 1 }
            if index < 0 { return runs.first }
            return index < runs.others.count ? runs.others[index] : nil
        }
    }

    func makeIterator() -> Iterator { Iterator(runs: self) }

    /// Appends a run that follows the others in time, merging it with the last when they touch.
    mutating func append(_ run: Range<Int64>) {
        guard let previous = last else {
            first = run
            return
        }
        let merged =
            previous.upperBound == run.lowerBound ? previous.lowerBound..<run.upperBound : nil
        if others.isEmpty {
            if let merged { first = merged } else { others.append(run) }
        } else if let merged {
            others[others.count - 1] = merged
        } else {
            others.append(run)
        }
    }
}

extension LocalDate {
    /// The first instant of this date in `zone`, in the proleptic Gregorian calendar the store
    /// uses for every year (Foundation's `.gregorian` calendar is Julian before 1582-10-15). For
    /// a date the zone skips (Samoa's 2011-12-30), the instant the next date begins.
    public func firstInstant(in zone: TimeZone) -> Date {
        Date(
            milliseconds: LocalDayGrid(zone: zone, from: self, through: self).bounds(of: self).start
        )
    }
}
