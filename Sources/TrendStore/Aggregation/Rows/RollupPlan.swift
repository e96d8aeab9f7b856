/// Which level of a store answers a stretch of time, for every aggregate: whole summary
/// hours from hour summaries, other quarter-aligned pieces from rollup slots (a store that
/// keeps every row), everything else from raw samples; the same bits whichever answers.
///
/// The one planner of the aggregation layer: ``SeriesAggregator`` (curves, weekday
/// averages, heatmaps) and ``StatisticsAggregator`` (interval statistics) ask it.
struct RollupPlan {
    /// Whether any rollup is read (`false`: raw samples only, for verification and
    /// benchmarks that show what the rollups buy).
    let usesRollups: Bool
    /// Whether whole summary hours are read from hour summaries.
    let readsSummaries: Bool
    /// Whether quarter-aligned pieces are read from rollup slots: the store keeps every row.
    let readsSlots: Bool
    /// Where the store's summary hours begin within UTC hours.
    let phase: HourPhase
    /// Whether the store keeps a rollup row for every day (the quarter-hour grid).
    let keepsEveryRow: Bool

    /// The plan for queries of `storage`, reading rollups unless `usesRollups` is `false`.
    init(storage: SampleStorage, usesRollups: Bool) {
        self.usesRollups = usesRollups
        readsSummaries = usesRollups && storage.readsHourSummaries
        keepsEveryRow = storage.rollupGrid.keepsEveryRow
        readsSlots = usesRollups && keepsEveryRow
        phase = storage.hourPhase
    }

    /// How a day is read.
    enum DayReading {
        /// Its 24 hours are whole summary hours from `start`, read from hour summaries.
        case summaries(start: Int64)
        /// Its 24 hours are quarter-aligned from `start`, read from rollup slots.
        case slots(start: Int64)
        /// Hour span by hour span (a transition day, the day holding `now`, raw reads).
        case spans
    }

    /// The start of the finest rollup cell holding `now` (a quarter-hour slot, or a summary
    /// hour in a store of the hour grid): rollups answer for time before it, raw samples for
    /// the part of that cell before `now`.
    func cut(before now: Int64) -> Int64 {
        keepsEveryRow
            ? now - now.floorModulo(TimeGrid.quarterHour) : phase.hourStart(containing: now)
    }

    /// How a day whose 24 hours are regular from `regularStart` (`nil` for a day of a
    /// transition) is read, when rollups answer only before `cut`.
    func reading(ofDayStartingAt regularStart: Int64?, cut: Int64?) -> DayReading {
        guard usesRollups, let start = regularStart, start + TimeGrid.day <= cut ?? .max else {
            return .spans
        }
        if readsSummaries && phase.isHourStart(start) { return .summaries(start: start) }
        return readsSlots ? .slots(start: start) : .spans
    }

    /// Whether an hour summary answers `span`: a whole summary hour ending by `cut`.
    @inline(__always)
    func readsSummary(of span: HourSpan, cut: Int64?) -> Bool {
        readsSummaries && phase.isHourStart(span.start)
            && span.end == span.start + TimeGrid.hour && span.end <= cut ?? .max
    }

    /// Whether rollup slots answer `span` (quarter-aligned), up to `cut`.
    @inline(__always)
    func readsSlots(of span: HourSpan) -> Bool {
        readsSlots && span.isQuarterAligned
    }

    /// Whether rollup slots answer the counts and start sums of `run`: its ends fall on
    /// quarter-hours in a store that keeps every row.
    @inline(__always)
    func readsStartsFromSlots(_ run: Range<Int64>) -> Bool {
        readsSlots && run.lowerBound.floorModulo(TimeGrid.quarterHour) == 0
            && run.upperBound.floorModulo(TimeGrid.quarterHour) == 0
    }

    /// How a statistics bucket's `run` splits between summaries, slots and raw samples.
    @inline(__always)
    func parts(of run: Range<Int64>) -> AlignedParts {
        AlignedParts(run, plan: self)
    }
}

/// How a bucket's run splits: its middle aligned to the store's rollup grid (`aligned`:
/// quarter-hours, or summary hours in a store of the hour grid) and, within it, the whole
/// summary hours (`hours`) that hour summaries answer; the rest of `aligned` is slots, the
/// ends outside it raw samples. `readsRollups` is `false` when raw samples answer it all.
struct AlignedParts {
    let aligned: Range<Int64>?
    let hours: Range<Int64>?
    /// Whether rollups answer `aligned` (without rows, only when summaries answer it all).
    let readsRollups: Bool

    fileprivate init(_ run: Range<Int64>, plan: RollupPlan) {
        let phase = plan.phase
        let start: Int64
        let end: Int64
        if plan.keepsEveryRow {
            let quarter = TimeGrid.quarterHour
            start = (run.lowerBound + quarter - 1).floorDivided(by: quarter) * quarter
            end = run.upperBound.floorDivided(by: quarter) * quarter
        } else {
            start = phase.hourStart(atOrAfter: run.lowerBound)
            end = phase.hourStart(containing: run.upperBound)
        }
        aligned = start < end ? start..<end : nil
        let hourStart = phase.hourStart(atOrAfter: start)
        let hourEnd = phase.hourStart(containing: end)
        hours =
            plan.readsSummaries && aligned != nil && hourStart < hourEnd
            ? hourStart..<hourEnd : nil
        readsRollups =
            plan.usesRollups && aligned != nil && (plan.keepsEveryRow || hours == aligned)
    }

    /// Calls `body(from, to)` with the parts of `aligned` outside `hours`, in time order.
    @inline(__always)
    func forEachSlotRange(_ body: (Int64, Int64) -> Void) {
        guard let aligned else { return }
        guard let hours else { return body(aligned.lowerBound, aligned.upperBound) }
        body(aligned.lowerBound, hours.lowerBound)
        body(hours.upperBound, aligned.upperBound)
    }
}
