import Foundation
import LMDB

/// The aggregates computed from a store's samples and rollups, inside any
/// transaction the caller holds: today's curve, day curves, weekday averages, heatmaps.
struct Queries {
    let storage: SampleStorage

    /// Today's curve up to `now`, inside any transaction.
    func todayCurve<T: ReadableTransaction & ~Copyable>(
        of series: String, now: Date, zone: TimeZone, source: String? = nil, in txn: borrowing T
    ) throws -> DayCurve {
        let instant = try SampleRules.instant(now, argument: .now)
        let today = LocalDate(containing: now, in: zone)
        let grid = LocalDayGrid(zone: zone, from: today, through: today)
        let record = try requireCumulative(series, for: "today's curve", in: txn)
        let aggregator = try self.aggregator(of: record, source: source, in: txn)
        let figures = try aggregator.figures(of: today, in: grid, until: instant, txn: txn)
        let latest = try aggregator.latestEnd(
            from: grid.bounds(of: today).start, now: instant, txn: txn)
        return DayCurve(
            series: record.name, date: today, cumulative: figures.cumulative,
            latestSampleTimestamp: latest.map(Date.init(milliseconds:)))
    }

    /// The weekday averages of `weekdays`, and the instants their candidate days span.
    func weekdayAverages<T: ReadableTransaction & ~Copyable>(
        of series: String, weekdays: [Weekday], now: Date, options: WeekdayAverageOptions,
        zone: TimeZone, source: String? = nil, in txn: borrowing T
    ) throws -> (averages: [WeekdayAverage], window: Range<Int64>) {
        _ = try SampleRules.instant(now, argument: .now)
        let today = LocalDate(containing: now, in: zone)
        let record = try requireCumulative(series, for: "a weekday average", in: txn)
        let empty = weekdays.map {
            WeekdayAverage(
                series: record.name, weekday: $0, days: [], averageHourlyPattern: nil,
                projectedTotal: nil)
        }
        let first: LocalDate
        switch options.window {
        case .days(let count):
            guard count > 0 else {
                throw StoreError.invalidArgument(
                    .window, reason: "the window must be at least one day, not \(count)")
            }
            first = today.adding(days: -count)
        case .allTime:
            guard let start = try storage.firstStart(of: record, in: txn) else {
                return (empty, 0..<0)
            }
            first = min(LocalDate(containing: Date(milliseconds: start), in: zone), today)
        }
        let grid = LocalDayGrid(zone: zone, from: first, through: today)
        // Every candidate day's instants: a date can end after the next one began.
        let window =
            grid.bounds(of: first)
            .start..<max(
                grid.bounds(of: today).start, grid.bounds(of: today.adding(days: -1)).end)
        // The curve sum of each weekday asked for, at its raw value − 1 (Sunday first).
        var curves = [WeekdayCurveSum?](repeating: nil, count: 7)
        for weekday in weekdays {
            curves[weekday.rawValue - 1] = WeekdayCurveSum(
                weekday: weekday, includeEmptyDays: options.includeEmptyDays)
        }
        let dates = stride(from: first.dayNumber, to: today.dayNumber, by: 1).map(
            LocalDate.init(dayNumber:)
        )
        .filter { curves[Weekday(of: $0).rawValue - 1] != nil }
        try aggregator(
            of: record, source: source, usesRollups: !options.fromRawSamples, in: txn
        )
        .forEachDay(of: dates, in: grid, txn: txn) { index, figures in
            curves[Weekday(of: dates[index]).rawValue - 1]?.add(dates[index], figures)
        }
        let averages = weekdays.compactMap { curves[$0.rawValue - 1]?.average(series: record.name) }
        return (averages, window)
    }

    /// The whole cumulative hourly curve of `date`.
    func dayCurve<T: ReadableTransaction & ~Copyable>(
        of series: String, on date: LocalDate, zone: TimeZone, source: String? = nil,
        in txn: borrowing T
    ) throws -> DayCurve {
        try SampleRules.checkDates(date)
        let grid = LocalDayGrid(zone: zone, from: date, through: date)
        let record = try requireCumulative(series, for: "a day's curve", in: txn)
        let figures = try aggregator(of: record, source: source, in: txn).figures(
            of: date, in: grid, txn: txn)
        return DayCurve(
            series: record.name, date: date, cumulative: figures.cumulative,
            latestSampleTimestamp: nil)
    }

    /// Calls `body` with each day of the heatmap of `series` over `from...through`, oldest
    /// first, computing a year at a time so memory stays flat over any range. Each day is
    /// handed over (`consuming`): kept, it costs no second reference to the figures it shares.
    func forEachHeatmapDay<T: ReadableTransaction & ~Copyable>(
        of series: [String], from: LocalDate, through: LocalDate, zone: TimeZone,
        source: String? = nil, in txn: borrowing T, _ body: (consuming HeatmapDay) throws -> Void
    ) throws {
        try SampleRules.checkDates(from, through)
        guard from <= through else {
            throw StoreError.invalidArgument(
                .range, reason: "the heatmap range \(from)…\(through) ends before it starts")
        }
        let names = Set(series.map(SeriesName.normalized)).sorted()
        let grid = LocalDayGrid(zone: zone, from: from, through: through)
        let aggregators = try names.map {
            try aggregator(
                of: try storage.requireSeries(named: $0, in: txn), source: source, in: txn)
        }
        var first = from
        while first <= through {
            let last = min(first.adding(days: 365), through)
            let dayCount = Int(last.dayNumber - first.dayNumber) + 1
            let runs = grid.dayRuns(from: first, through: last)
            let perSeries = try aggregators.map {
                try $0.dayTotals(of: runs, dayCount: dayCount, txn: txn)
            }
            let figures = HeatmapFigures(
                series: names, counts: perSeries.map(\.counts),
                sums: perSeries.map(\.sums))
            for index in 0..<dayCount {
                try body(HeatmapDay(date: first.adding(days: index), figures: figures, day: index))
            }
            first = last.adding(days: 1)
        }
    }
}

extension Queries {
    /// Interval statistics of `series` inside any transaction.
    func statistics<T: ReadableTransaction & ~Copyable>(
        of series: String, from: Date, to: Date, interval: StatisticsInterval, anchor: Date?,
        zone: TimeZone, options: StatisticsOptions, fromRawSamples: Bool = false,
        source: String? = nil, in txn: borrowing T
    ) throws -> IntervalStatistics {
        let start = try SampleRules.instant(from, argument: .range)
        let end = try SampleRules.instant(to, argument: .range)
        let anchorInstant = try anchor.map { try SampleRules.instant($0, argument: .anchor) }
        let record = try storage.requireSeries(named: series, in: txn)
        guard !options.isEmpty else {
            throw StoreError.invalidArgument(
                .statistics,
                reason: "ask for at least one of sum, average, minimum, maximum, "
                    + "count, most recent")
        }
        if record.kind == .cumulative && !options.isDisjoint(with: .discreteOnly) {
            throw StoreError.unsupportedForKind(
                series: record.name, kind: .cumulative,
                reason: "average, minimum, maximum and most recent apply to discrete series; "
                    + "ask for sum or count")
        }
        let spans = try StatisticsBuckets.layout(
            from: start, to: end, interval: interval, anchor: anchorInstant, zone: zone)
        let read = try reading(record, source: source, in: txn)
        let figures = try StatisticsAggregator(
            storage: storage, record: read.record, usesRollups: read.usesRollups && !fromRawSamples
        )
        .figures(of: spans, txn: txn)
        let buckets = zip(spans, figures).map { span, figures in
            var bucket = StatisticsBucket(
                start: Date(milliseconds: span.start), end: Date(milliseconds: span.end))
            guard figures.hasData else { return bucket }
            if options.contains(.sum) { bucket.sum = figures.sum }
            if options.contains(.count) { bucket.count = Int(clamping: figures.count) }
            if record.kind == .discrete {
                if options.contains(.average) {
                    bucket.average = figures.sum / Double(figures.count)
                }
                if options.contains(.minimum) { bucket.minimum = figures.minimum }
                if options.contains(.maximum) { bucket.maximum = figures.maximum }
                if options.contains(.mostRecent) { bucket.mostRecent = figures.latest }
            }
            return bucket
        }
        return IntervalStatistics(
            series: record.name, kind: record.kind, timeZone: zone, interval: interval,
            options: options, buckets: buckets)
    }

    /// The aggregator of `record`'s figures: merged from every source, or of `source` alone.
    func aggregator<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, source: String?, usesRollups: Bool = true, in txn: borrowing T
    ) throws -> SeriesAggregator {
        let read = try reading(record, source: source, in: txn)
        return SeriesAggregator(
            storage: storage, record: read.record, usesRollups: read.usesRollups && usesRollups)
    }

    /// What a query of `record` reads: the series (its rollups hold the merged figures of
    /// every source), or with `source` that source's stream alone, from its samples (the
    /// rollups hold no one source's figures) unless it is the series' only source. While a
    /// priority change rebuilds the series' rows, its merged figures come from its samples.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` for a source the series lacks.
    func reading<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, source: String?, in txn: borrowing T
    ) throws -> (record: SeriesRecord, usesRollups: Bool) {
        guard let source else { return (record, !record.rebuildsRows) }
        let stream = try storage.stream(of: record, named: source, in: txn)
        return record.hasSources ? (stream.record, false) : (record, true)
    }

    /// The record of `series`, which must be cumulative for `query` (an hourly curve).
    func requireCumulative<T: ReadableTransaction & ~Copyable>(
        _ series: String, for query: String, in txn: borrowing T
    ) throws -> SeriesRecord {
        let record = try storage.requireSeries(named: series, in: txn)
        guard record.kind == .cumulative else {
            throw StoreError.unsupportedForKind(
                series: record.name, kind: record.kind,
                reason: "\(query) sums values over time; use statistics (query stats) for "
                    + "averages, minimums and maximums")
        }
        return record
    }
}
