/// The dates one pass of ``SeriesAggregator/forEachDay(of:in:until:txn:_:)`` answers, with
/// how each is read and, for a date read hour span by hour span, its spans: formed once,
/// when the pass plans which rows to load, and read again when it answers.
struct DayPass {
    /// The dates, ascending.
    let dates: ArraySlice<LocalDate>
    /// How each date is read, by offset in ``dates``.
    let readings: [RollupPlan.DayReading]
    /// The spans of every date read span by span, one date after another.
    private var spans: [HourSpan] = []
    /// Where each date's spans lie in ``spans`` (empty for a date read whole).
    private var spanRanges: [Range<Int>] = []

    /// The pass over `dates` of `grid`, read as `plan` says when rollups answer only before
    /// `cut`.
    init(dates: ArraySlice<LocalDate>, grid: LocalDayGrid, plan: RollupPlan, cut: Int64?) {
        self.dates = dates
        readings = dates.map { plan.reading(ofDayStartingAt: grid.regularStart(of: $0), cut: cut) }
        spanRanges.reserveCapacity(dates.count)
        for (date, reading) in zip(dates, readings) {
            let first = spans.count
            if case .spans = reading { grid.appendSpans(of: date, to: &spans) }
            spanRanges.append(first..<spans.count)
        }
    }

    /// The number of dates.
    var count: Int { dates.count }

    /// The hour spans of the date at `offset`, in time order; empty unless it is read span by
    /// span.
    func spans(at offset: Int) -> ArraySlice<HourSpan> { spans[spanRanges[offset]] }
}
