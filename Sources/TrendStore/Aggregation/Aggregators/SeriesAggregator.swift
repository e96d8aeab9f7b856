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
    /// Which level answers each span: summaries, slots or raw samples.
    let plan: RollupPlan
    /// The zlib stream raw reads decode blocks with.
    let zlib = ZlibCodec()
    /// The sources of a series with several, in priority order, read by the first raw read
    /// that needs them (an aggregator serves one transaction).
    let sources = SourceStreamsMemo()

    /// An aggregator of `record`, reading rollups unless `usesRollups` is `false`.
    init(storage: SampleStorage, record: SeriesRecord, usesRollups: Bool = true) {
        self.storage = storage
        self.record = record
        plan = RollupPlan(storage: storage, usesRollups: usesRollups)
    }

    /// The sources of `record`, in priority order.
    func streams<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> [SourceStream] {
        if let known = sources.streams { return known }
        let read = try storage.streams(of: record, in: txn)
        sources.streams = read
        return read
    }

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

    /// Calls `body(index, figures)` with the figures of each of `dates` (ascending), in
    /// order, counting only instants before `now` (and instant samples at `now`) when given:
    /// the one walk over days every aggregate of local days takes.
    ///
    /// A span that is a whole summary hour before the current quarter-hour reads its hour
    /// summary when the store has them, with the same bits as its four slots. A date of
    /// 24 regular hours before `now` is read without forming its spans. The dates are
    /// read ``datesPerPass`` at a time, each pass loading the rows its dates need and then
    /// answering them, so memory stays flat over any range. Nothing is allocated per day:
    /// the figures passed to `body` are overwritten for the next day.
    func forEachDay<T: ReadableTransaction & ~Copyable>(
        of dates: [LocalDate], in grid: LocalDayGrid, until now: Int64? = nil,
        txn: borrowing T, _ body: (Int, LocalDayFigures) throws -> Void
    ) throws {
        let cut = now.map(plan.cut(before:))
        for first in stride(from: 0, to: dates.count, by: Self.datesPerPass) {
            let pass = DayPass(
                dates: dates[first..<min(first + Self.datesPerPass, dates.count)], grid: grid,
                plan: plan, cut: cut)
            let (slotRanges, hourRanges) = rollupRanges(of: pass, until: now, cut: cut)
            let rows = try RollupRows(
                storage: storage, record: record, days: slotRanges.daySlots,
                includesStarts: false, txn: txn)
            try HourRows.withRows(
                from: plan.readsSummaries ? storage : nil, record: record,
                days: hourRanges.utcDays, txn: txn
            ) { hours in
                try answer(
                    pass, in: grid, until: now, cut: cut, rows: rows, hours: hours, txn: txn
                ) { offset, figures in
                    try body(first + offset, figures)
                }
            }
        }
    }

    /// How many dates one pass of ``forEachDay(of:in:until:txn:_:)`` loads rows for: their
    /// slots (at most 512 rows of 96, 440 KiB) stay in the processor's cache and are reused.
    static let datesPerPass = 256

    /// The instants whose rollup slots, and those whose hour summaries, answer the dates of
    /// `pass` until `now`.
    private func rollupRanges(of pass: DayPass, until now: Int64?, cut: Int64?) -> (
        slots: InstantRanges, hours: InstantRanges
    ) {
        var slotRanges = InstantRanges()
        var hourRanges = InstantRanges()
        guard plan.usesRollups else { return (slotRanges, hourRanges) }
        for offset in 0..<pass.count {
            switch pass.readings[offset] {
            case .summaries(let start):
                hourRanges.append(start, start + TimeGrid.day)
            case .slots(let start):
                slotRanges.append(start, start + TimeGrid.day)
            case .spans:
                for span in pass.spans(at: offset) {
                    if let now, span.start > now { break }
                    if plan.readsSummary(of: span, cut: cut) {
                        hourRanges.append(span.start, span.end)
                    } else if plan.readsSlots(of: span) {
                        slotRanges.append(span.start, min(span.end, cut ?? .max))
                    }
                }
            }
        }
        return (slotRanges, hourRanges)
    }

    /// Calls `body(offset, figures)` with the figures of each date of `pass`, from the rows
    /// loaded for them, as its readings say.
    private func answer<T: ReadableTransaction & ~Copyable>(
        _ pass: DayPass, in grid: LocalDayGrid, until now: Int64?, cut: Int64?,
        rows: RollupRows, hours: HourRows?, txn: borrowing T,
        _ body: (Int, LocalDayFigures) throws -> Void
    ) throws {
        var summaries = SummaryWindow()
        var figures = LocalDayFigures()
        // A run of consecutive days answered from raw samples (all seven weekday averages
        // asked in a zone whose hours the summaries do not share) has its blocks decoded
        // ahead on several threads; `prefetched` is the key of the first block not yet.
        var runEnd: Int64?
        if let first = pass.dates.first, let last = pass.dates.last, pass.count >= 8,
            last.dayNumber - first.dayNumber == pass.count - 1
        {
            runEnd = min(grid.bounds(of: last).end, now ?? .max)
        }
        var prefetched = Int64.min
        var offset = 0
        while offset < pass.count {
            if let runEnd, case .spans = pass.readings[offset] {
                let run = try rawRun(
                    of: pass, from: offset, now: now, cut: cut, hours: hours, runEnd: runEnd,
                    prefetched: &prefetched, txn: txn)
                for (step, dayFigures) in run.enumerated() { try body(offset + step, dayFigures) }
                offset += run.count
                if !run.isEmpty { continue }
            }
            let index = offset
            offset += 1
            figures.reset()
            switch pass.readings[index] {
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
            let spans = pass.spans(at: index)
            // The blocks of the raw spans' samples, read once for the day: each span takes
            // its share of each, in order, the samples a read of its own would give (the
            // same bits), without copying them.
            var dayBlocks: [DecodedBlock]?
            for span in spans {
                if let now, span.start > now { break }
                if let hours, plan.readsSummary(of: span, cut: cut) {
                    summaries.add(
                        hourStarting: span.start, of: hours, toHour: span.hour, of: &figures)
                } else if plan.readsSlots(of: span) {
                    addSlots(
                        rows, from: span.start, to: min(span.end, cut ?? .max), hour: span.hour,
                        into: &figures)
                    if let now, let cut, span.end > cut {
                        let raw = try rawSamples(
                            startingFrom: cut - record.maximumDuration, through: now, txn: txn)
                        Self.addRaw(
                            raw.samples[...], roles: raw.roles, from: cut, to: now, closed: true,
                            hour: span.hour, into: &figures)
                    }
                } else {
                    // readsRaw(span, hours: hours, cut: cut) holds here.
                    if dayBlocks == nil {
                        dayBlocks = try blocks(
                            from: span.start - record.maximumDuration,
                            through: lastRawEnd(of: spans, hours: hours, cut: cut, now: now),
                            aheadThrough: runEnd, prefetched: &prefetched, txn: txn)
                    }
                    Self.addRaw(dayBlocks ?? [], in: span, until: now, into: &figures)
                }
            }
            try body(index, figures)
        }
    }

    /// The end of the last of a day's `spans` that raw samples answer, up to `now`.
    func lastRawEnd(of spans: ArraySlice<HourSpan>, hours: HourRows?, cut: Int64?, now: Int64?)
        -> Int64
    {
        var last = Int64.min
        for span in spans {
            if let now, span.start > now { break }
            if readsRaw(span, hours: hours, cut: cut) { last = min(span.end, now ?? .max) }
        }
        return last
    }

    /// Whether raw samples answer `span` in the loop above: neither an hour summary (when
    /// `hours` were loaded) nor rollup slots do.
    func readsRaw(_ span: HourSpan, hours: HourRows?, cut: Int64?) -> Bool {
        !(hours != nil && plan.readsSummary(of: span, cut: cut)) && !plan.readsSlots(of: span)
    }

    /// Adds the rollup slots of `[from, to)`, both quarter-aligned, to hour `hour`.
    @inline(__always)
    func addSlots(
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

    /// Adds the part of `samples` inside `[from, to)` (or `[from, to]` when `closed`) to hour
    /// `hour`; `roles`, indexed as the slice's base, says what each stands for in a merged
    /// view of several sources (`nil`: each counts whole).
    static func addRaw(
        _ samples: ArraySlice<Sample>, roles: [SampleRole]? = nil, from: Int64, to: Int64,
        closed: Bool, hour: Int, into figures: inout LocalDayFigures
    ) {
        for index in samples.indices {
            let sample = samples[index]
            let start = sample.startMilliseconds
            let end = sample.endMilliseconds
            let startsInside = start >= from && (start < to || (closed && start == to))
            if let role = roles?[index], role != .whole {
                addMerged(
                    sample, role, startsInside: startsInside, from: from, to: to, hour: hour,
                    into: &figures)
                continue
            }
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

    /// Adds a head or a piece of a merged view: a head counts (when it counts as a sample)
    /// and adds its value to the start sum where it starts; a piece is prorated.
    private static func addMerged(
        _ sample: Sample, _ role: SampleRole, startsInside: Bool, from: Int64, to: Int64,
        hour: Int, into figures: inout LocalDayFigures
    ) {
        switch role {
        case .whole: return
        case .countedHead, .uncountedHead:
            guard startsInside else { return }
            if role == .countedHead { figures.count += 1 }
            figures.startSum += sample.value
            figures.hasData = true
        case .piece:
            let overlap =
                min(sample.endMilliseconds, to) - max(sample.startMilliseconds, from)
            guard overlap > 0 else { return }
            if !figures.hourly.isEmpty {
                figures.hourly[hour] += Proration.share(
                    of: sample.value, overlap: overlap,
                    duration: Double(sample.endMilliseconds - sample.startMilliseconds))
            }
            figures.hasData = true
        }
    }
}

/// Where a ``SeriesAggregator`` keeps the sources it read: one transaction's, read once.
final class SourceStreamsMemo {
    var streams: [SourceStream]?
}
