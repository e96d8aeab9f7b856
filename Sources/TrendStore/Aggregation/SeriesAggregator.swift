import LMDB

/// What one local day holds for one series.
struct LocalDayFigures {
    /// The prorated sum of each wall-clock hour bucket (empty when only day totals were asked for).
    var hourly = [Double](repeating: 0, count: 24)
    /// Whether any sample overlaps the day (or the part of it asked for).
    var hasData = false
    /// How many samples start in the day.
    var count = 0
    /// The sum of the whole values of the samples starting in the day.
    var startSum = 0.0

    /// Empties the figures for the next day, keeping the hourly storage (24 hours or none).
    mutating func reset() {
        for hour in hourly.indices { hourly[hour] = 0 }
        hasData = false
        count = 0
        startSum = 0
    }

    /// The cumulative curve: `C[h] = Σ_{k ≤ h} hourly[k]`.
    var cumulative: [Double] {
        var running = 0.0
        return hourly.map {
            running += $0; return running
        }
    }
}

/// Computes local-day figures of one series from its rollups.
///
/// Quarter-aligned hour spans (every modern zone) are sums of rollup slots, whole summary
/// hours (UTC hours, or those of the store's ``HourPhase``) sums of hour summaries. A span
/// that is not aligned (a historical offset such as Monrovia's −0:44:30), and the part of
/// the current quarter-hour before `now`, are computed from raw samples. In a store of the
/// hour grid (``RollupGrid/hour``) only whole summary hours are read from rollups: any
/// other span, and the part of the current summary hour before `now`, come from raw samples.
struct SeriesAggregator {
    let storage: SampleStorage
    let record: SeriesRecord
    /// Whether aligned spans read rollups (`true`) or raw samples like unaligned ones.
    let usesRollups: Bool
    /// The zlib stream raw reads decode blocks with.
    let zlib = ZlibCodec()

    init(storage: SampleStorage, record: SeriesRecord, usesRollups: Bool = true) {
        self.storage = storage
        self.record = record
        self.usesRollups = usesRollups
    }

    /// Whether quarter-aligned spans read rollup slots: the store keeps rows.
    private var readsSlots: Bool { usesRollups && storage.rollupGrid.keepsEveryRow }

    /// The figures of `date`, counting only instants before `now` (and instant samples at
    /// `now`) when given.
    func figures<T: ReadableTransaction & ~Copyable>(
        of date: LocalDate, in grid: LocalDayGrid, until now: Int64? = nil, txn: borrowing T
    ) throws -> LocalDayFigures {
        var result = LocalDayFigures()
        try forEachDay(of: [date], in: grid, until: now, txn: txn) { _, figures in
            result = figures
        }
        return result
    }

    /// How the second pass of ``forEachDay(of:in:until:txn:_:)`` reads a date.
    private enum DayReading {
        /// Its 24 hours are whole summary hours from `start`, read from hour summaries.
        case summaries(start: Int64)
        /// Its 24 hours are quarter-aligned from `start`, read from rollup slots.
        case slots(start: Int64)
        /// Hour span by hour span (a transition day, the day holding `now`, raw reads).
        case spans
    }

    /// Calls `body(index, figures)` with the figures of each of `dates` (ascending), in
    /// order, counting only instants before `now` (and instant samples at `now`) when given.
    ///
    /// A span that is a whole summary hour before the current quarter-hour reads its hour
    /// summary when the store has them, with the same bits as its four slots. A date of
    /// 24 regular hours before `now` is read without forming its spans. The dates are
    /// read ``datesPerPass`` at a time, so memory stays flat over any range. Nothing is
    /// allocated per day: the figures passed to `body` are overwritten for the next day.
    func forEachDay<T: ReadableTransaction & ~Copyable>(
        of dates: [LocalDate], in grid: LocalDayGrid, until now: Int64? = nil,
        txn: borrowing T, _ body: (Int, LocalDayFigures) throws -> Void
    ) throws {
        let summarySource = usesRollups && storage.readsHourSummaries ? storage : nil
        for first in stride(from: 0, to: dates.count, by: Self.datesPerPass) {
            let pass = dates[first..<min(first + Self.datesPerPass, dates.count)]
            try forEachDay(
                of: pass, in: grid, until: now, summarySource: summarySource, txn: txn
            ) { offset, figures in
                try body(first + offset, figures)
            }
        }
    }

    /// How many dates one pass of ``forEachDay(of:in:until:txn:_:)`` loads rows for: their
    /// slots (at most 512 rows of 96, 440 KiB) stay in the processor's cache and are reused.
    static let datesPerPass = 256

    /// One pass of ``forEachDay(of:in:until:txn:_:)``: loads the rows of `dates` and calls
    /// `body(offset, figures)` with each date's offset in them.
    private func forEachDay<T: ReadableTransaction & ~Copyable>(
        of dates: ArraySlice<LocalDate>, in grid: LocalDayGrid, until now: Int64?,
        summarySource: SampleStorage?, txn: borrowing T,
        _ body: (Int, LocalDayFigures) throws -> Void
    ) throws {
        let cut = now.map(storage.rollupCut(before:))
        var spans: [HourSpan] = []
        spans.reserveCapacity(25)
        var slotRanges = InstantRanges()
        var hourRanges = InstantRanges()
        let readings: [DayReading] = dates.map { date in
            guard usesRollups, let start = grid.regularStart(of: date),
                start + TimeGrid.day <= cut ?? .max
            else { return .spans }
            if summarySource != nil && storage.hourPhase.isHourStart(start) {
                return .summaries(start: start)
            }
            return readsSlots ? .slots(start: start) : .spans
        }
        if usesRollups {
            for (index, date) in dates.enumerated() {
                switch readings[index] {
                case .summaries(let start):
                    hourRanges.append(start, start + TimeGrid.day)
                    continue
                case .slots(let start):
                    slotRanges.append(start, start + TimeGrid.day)
                    continue
                case .spans:
                    break
                }
                grid.spans(of: date, into: &spans)
                for span in spans {
                    if let now, span.start > now { break }
                    if summarySource != nil && readsHour(span, cut: cut) {
                        hourRanges.append(span.start, span.end)
                    } else if readsSlots && span.isQuarterAligned {
                        slotRanges.append(span.start, min(span.end, cut ?? .max))
                    }
                }
            }
        }
        let rows = try RollupRows(
            storage: storage, record: record, days: slotRanges.daySlots, includesStarts: false,
            txn: txn)
        try HourRows.withRows(
            from: summarySource, record: record,
            days: hourRanges.utcDays, txn: txn
        ) { hours in
            try forEachDay(
                of: dates, in: grid, until: now, cut: cut, readings: readings, rows: rows,
                hours: hours, txn: txn, body)
        }
    }

    /// The second pass of ``forEachDay(of:in:until:txn:_:)``: each day's figures from the
    /// rows the first loaded for them, as `readings` says.
    private func forEachDay<T: ReadableTransaction & ~Copyable>(
        of dates: ArraySlice<LocalDate>, in grid: LocalDayGrid, until now: Int64?, cut: Int64?,
        readings: [DayReading], rows: RollupRows, hours: HourRows?, txn: borrowing T,
        _ body: (Int, LocalDayFigures) throws -> Void
    ) throws {
        var spans: [HourSpan] = []
        spans.reserveCapacity(25)
        var summaries = SummaryWindow()
        var figures = LocalDayFigures()
        for (index, date) in dates.enumerated() {
            figures.reset()
            switch readings[index] {
            case .summaries(let start):
                if let hours {
                    summaries.addDay(startingAt: start, of: hours, to: &figures)
                    try body(index, figures)
                    continue
                }
            case .slots(let start):
                // The spans such a date has, each through ``addSlots(_:from:to:hour:into:)``
                // as below, so the bits are the same.
                for hour in 0..<24 {
                    let hourStart = start + Int64(hour) * TimeGrid.hour
                    addSlots(
                        rows, from: hourStart, to: hourStart + TimeGrid.hour, hour: hour,
                        into: &figures)
                }
                try body(index, figures)
                continue
            case .spans:
                break
            }
            grid.spans(of: date, into: &spans)
            for span in spans {
                if let now, span.start > now { break }
                if let hours, readsHour(span, cut: cut) {
                    summaries.add(
                        hourStarting: span.start, of: hours, toHour: span.hour, of: &figures)
                } else if readsSlots && span.isQuarterAligned {
                    addSlots(
                        rows, from: span.start, to: min(span.end, cut ?? .max), hour: span.hour,
                        into: &figures)
                    if let now, let cut, span.end > cut {
                        let samples = try rawSamples(
                            startingFrom: cut - record.maximumDuration, through: now, txn: txn)
                        Self.addRaw(
                            samples, from: cut, to: now, closed: true, hour: span.hour,
                            into: &figures)
                    }
                } else {
                    let end = min(span.end, now ?? .max)
                    let samples = try rawSamples(
                        startingFrom: span.start - record.maximumDuration, through: end, txn: txn)
                    // An instant at `now` belongs to the one span holding `now`, never also
                    // to the span that ends there.
                    let holdsNow = now.map { span.start <= $0 && $0 < span.end } ?? false
                    Self.addRaw(
                        samples, from: span.start, to: end, closed: holdsNow, hour: span.hour,
                        into: &figures)
                }
            }
            try body(index, figures)
        }
    }

    /// The sums of the summary hours beginning in two consecutive UTC days
    /// (``HourRows/sums(ofDay:into:at:)``), the window a local day reads: the next local day
    /// begins in the second, so each UTC day is read once over many days.
    private struct SummaryWindow {
        private var firstDay = Int64.min
        /// The hours with data, bit `24 × (day − firstDay) + h` for hour `h`.
        private var present: UInt64 = 0
        /// The sums of the two days' hours, 0 where an hour has no data.
        private var sums = [Double](repeating: 0, count: 48)

        /// Makes the window hold UTC days `day` and `day + 1`.
        @inline(__always)
        private mutating func load(from day: Int64, _ hours: HourRows) {
            guard day != firstDay else { return }
            if day == firstDay + 1 {
                for hour in 0..<24 { sums[hour] = sums[hour + 24] }
                present >>= 24
            } else {
                present = UInt64(hours.sums(ofDay: day, into: &sums, at: 0))
            }
            present |= UInt64(hours.sums(ofDay: day + 1, into: &sums, at: 24)) << 24
            firstDay = day
        }

        /// Adds the 24 summary hours from `start` (a summary hour start) to local hours 0…23
        /// of `figures`.
        @inline(__always)
        mutating func addDay(
            startingAt start: Int64, of hours: HourRows, to figures: inout LocalDayFigures
        ) {
            let (day, first) = hours.phase.entry(ofHourStartingAt: start)
            load(from: day, hours)
            if (present >> UInt64(first)) & 0xFF_FFFF != 0 { figures.hasData = true }
            sums.withUnsafeBufferPointer { sums in
                figures.hourly.withUnsafeMutableBufferPointer { hourly in
                    for hour in 0..<24 { hourly[hour] += sums[first + hour] }
                }
            }
        }

        /// Adds the sum of the summary hour starting at `start` to local hour `hour` of `figures`.
        @inline(__always)
        mutating func add(
            hourStarting start: Int64, of hours: HourRows, toHour hour: Int,
            of figures: inout LocalDayFigures
        ) {
            let (day, entry) = hours.phase.entry(ofHourStartingAt: start)
            if day != firstDay && day != firstDay + 1 { load(from: day, hours) }
            let index = Int(day - firstDay) * 24 + entry
            if present & (1 << UInt64(index)) != 0 {
                figures.hasData = true
                figures.hourly[hour] += sums[index]
            }
        }
    }

    /// Whether `span` is a whole summary hour ending by `cut`, which an hour summary answers.
    @inline(__always)
    private func readsHour(_ span: HourSpan, cut: Int64?) -> Bool {
        storage.hourPhase.isHourStart(span.start) && span.end == span.start + TimeGrid.hour
            && span.end <= cut ?? .max
    }

    /// The count and start sum of each day, given the runs of instants it is made of; for heatmaps.
    ///
    /// Needs no hour spans: a run whose ends fall on quarter-hours is a run of rollup
    /// slots; any other run (a historical offset), and every run of a store of the hour
    /// grid, is counted from raw samples.
    func dayTotals<T: ReadableTransaction & ~Copyable>(
        of days: [DayRuns], txn: borrowing T
    ) throws -> [DayCount] {
        var ranges = InstantRanges()
        if readsSlots {
            for runs in days {
                for run in runs { ranges.append(run) }
            }
        }
        let rows = try RollupRows(
            storage: storage, record: record, days: ranges.daySlots, includesStarts: true,
            txn: txn)
        var result: [DayCount] = []
        result.reserveCapacity(days.count)
        for runs in days {
            var figures = LocalDayFigures(hourly: [])
            for run in runs { try addStarts(in: run, rows: rows, into: &figures, txn: txn) }
            result.append(DayCount(count: figures.count, total: figures.startSum))
        }
        return result
    }

    /// Adds the count and start sum of the samples starting in `run`: from rollup slots when
    /// the store keeps them and its ends fall on quarter-hours, else from raw samples.
    @inline(__always)
    private func addStarts<T: ReadableTransaction & ~Copyable>(
        in run: Range<Int64>, rows: RollupRows, into figures: inout LocalDayFigures,
        txn: borrowing T
    ) throws {
        if readsSlots && run.lowerBound.floorModulo(TimeGrid.quarterHour) == 0
            && run.upperBound.floorModulo(TimeGrid.quarterHour) == 0
        {
            addSlots(rows, from: run.lowerBound, to: run.upperBound, hour: 0, into: &figures)
        } else {
            for sample in try rawSamples(
                startingFrom: run.lowerBound, through: run.upperBound - 1, txn: txn)
            {
                figures.count += 1
                figures.startSum += sample.value
            }
        }
    }

    /// Adds the rollup slots of `[from, to)`, both quarter-aligned, to hour `hour`.
    @inline(__always)
    private func addSlots(
        _ rows: RollupRows, from: Int64, to: Int64, hour: Int, into figures: inout LocalDayFigures
    ) {
        var instant = from
        while instant < to {
            let utcDay = instant.floorDivided(by: TimeGrid.day)
            let dayStart = utcDay * TimeGrid.day
            let upTo = min(to, dayStart + TimeGrid.day)
            if let base = rows.base(ofDay: utcDay) {
                let first = base + Int((instant - dayStart) / TimeGrid.quarterHour)
                let last = base + Int((upTo - dayStart) / TimeGrid.quarterHour)
                var sum = 0.0
                var touched = false
                for slot in first..<last {
                    sum += rows.prorated[slot]
                    touched = touched || rows.touched[slot]
                }
                if touched { figures.hasData = true }
                if rows.includesStarts {
                    for slot in first..<last {
                        figures.count += Int(rows.startCounts[slot])
                        figures.startSum += rows.startSums[slot]
                    }
                }
                if !figures.hourly.isEmpty { figures.hourly[hour] += sum }
            }
            instant = upTo
        }
    }

    /// Adds the part of `samples` inside `[from, to)` (or `[from, to]` when `closed`) to hour `hour`.
    static func addRaw(
        _ samples: [Sample], from: Int64, to: Int64, closed: Bool, hour: Int,
        into figures: inout LocalDayFigures
    ) {
        for sample in samples {
            let start = sample.startMilliseconds
            let end = sample.endMilliseconds
            let startsInside = start >= from && (start < to || (closed && start == to))
            if end == start {
                guard startsInside else { continue }
                figures.hourly[hour] += sample.value
                figures.hasData = true
            } else {
                let overlap = min(end, to) - max(start, from)
                if overlap > 0 {
                    figures.hourly[hour] += Proration.share(
                        of: sample.value, overlap: overlap, duration: Double(end - start))
                    figures.hasData = true
                }
            }
            if startsInside {
                figures.count += 1
                figures.startSum += sample.value
            }
        }
    }
}
