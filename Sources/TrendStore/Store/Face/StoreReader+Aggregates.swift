import Foundation

/// The aggregates of local days: today's curve, a day's curve, weekday averages, heatmaps.
extension StoreReader where Self: ~Copyable {
    /// Today's cumulative hourly curve, up to `now`.
    ///
    /// Counts only what happened in `[start of today, now]`: a sample straddling `now`
    /// contributes its prorated part before `now`. `now` may lie in the past ("what did
    /// the widget show at 09:10?"); samples after it are ignored. An instant sample
    /// exactly at `now` counts once.
    ///
    /// ```swift
    /// let today = try store.todayCurve(of: "activeEnergy")
    /// print(today.total, today.latestSampleTimestamp as Any)
    /// ```
    ///
    /// - Parameters:
    ///   - series: The series name.
    ///   - now: The reference instant; its local date is "today" (default: the store's
    ///     clock, ``StoreOptions/clock``, the one the cache rules read).
    ///   - timeZone: The zone of the local day (default: the store's).
    ///   - source: One source whose figures alone are wanted (default: every source, merged
    ///     by the series' priority order, <doc:Sources>).
    /// - Throws: ``StoreError/Code/unknownSeries`` when the series does not exist,
    ///   ``StoreError/Code/invalidArgument(_:)`` for a source it does not have.
    /// - Complexity: Reads two or three rollup rows and the block around `now`
    ///   (decoded once, then cached while unchanged); one source alone reads its samples.
    public func todayCurve(
        of series: String, now: Date? = nil, timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> DayCurve {
        try read { snapshot in
            snapshot.region?.read(series)
            snapshot.region?.readClock(unless: now)
            let engine = snapshot.engine
            return try engine.queries.todayCurve(
                of: series, now: now ?? engine.clock(), zone: timeZone ?? engine.timeZone,
                source: source, in: snapshot.transaction)
        }
    }

    /// The whole cumulative hourly curve of a local date: of every source merged, or of
    /// `source` alone.
    public func dayCurve(
        of series: String, on date: LocalDate, timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> DayCurve {
        try read { snapshot in
            snapshot.region?.read(series)
            return try snapshot.engine.queries.dayCurve(
                of: series, on: date, zone: timeZone ?? snapshot.engine.timeZone, source: source,
                in: snapshot.transaction)
        }
    }

    /// The average cumulative pattern of one weekday over the days before today.
    ///
    /// With the default options the candidates are the ten days with weekday `weekday`
    /// among the 70 days before today; days without samples are left out.
    ///
    /// ```swift
    /// let mondays = try store.weekdayAverage(of: "activeEnergy", weekday: .monday)
    /// let expectedByNow = mondays.value(atHour: 9.5)
    /// ```
    ///
    /// - Parameters:
    ///   - series: The series name.
    ///   - weekday: The day of the week.
    ///   - now: The reference instant; its local date is "today", which is never a candidate
    ///     (default: the store's clock, ``StoreOptions/clock``).
    ///   - options: The window, and whether empty days count as zeros.
    ///   - timeZone: The zone of local days (default: the store's).
    ///   - source: One source whose figures alone are wanted (default: every source, merged).
    /// - Complexity: Reads about two rollup rows per candidate day; one source alone reads
    ///   its samples.
    public func weekdayAverage(
        of series: String, weekday: Weekday, now: Date? = nil,
        options: WeekdayAverageOptions = .init(),
        timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> WeekdayAverage {
        try weekdayAverages(
            of: series, weekdays: [weekday], now: now, options: options, timeZone: timeZone,
            source: source)[0]
    }

    /// The average patterns of all seven weekdays at once, Sunday first: of every source
    /// merged, or of `source` alone.
    public func weekdayAverages(
        of series: String, now: Date? = nil, options: WeekdayAverageOptions = .init(),
        timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> [WeekdayAverage] {
        try weekdayAverages(
            of: series, weekdays: Weekday.allCases, now: now, options: options, timeZone: timeZone,
            source: source)
    }

    private func weekdayAverages(
        of series: String, weekdays: [Weekday], now: Date?, options: WeekdayAverageOptions,
        timeZone: TimeZone?, source: String?
    ) throws -> [WeekdayAverage] {
        try read { snapshot in
            snapshot.region?.read(series)
            snapshot.region?.readClock(unless: now)
            let engine = snapshot.engine
            return try engine.queries.weekdayAverages(
                of: series, weekdays: weekdays, now: now ?? engine.clock(), options: options,
                zone: timeZone ?? engine.timeZone, source: source, in: snapshot.transaction
            ).averages
        }
    }

    /// Per-day counts and totals of `series` for every local date in `from...through`.
    ///
    /// A sample counts, whole, on the local day holding its start. Days without samples
    /// are included with zeros. For long ranges, ``forEachHeatmapDay(of:from:through:timeZone:source:_:)``
    /// hands out the days without holding them all.
    ///
    /// ```swift
    /// let year = try store.heatmap(of: ["Run", "Ride"], from: LocalDate("2026-01-01")!, through: LocalDate("2026-12-31")!)
    /// ```
    ///
    /// A sample of a series of several sources counts as its priority order says
    /// (<doc:Sources>); with `source`, that source's samples alone count.
    ///
    /// - Throws: ``StoreError/Code/unknownSeries`` when a series does not exist.
    /// - Complexity: One cursor walk over each series' rollups in the range.
    public func heatmap(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone? = nil,
        source: String? = nil
    ) throws -> Heatmap {
        var days: [HeatmapDay] = []
        days.reserveCapacity(Int(min(max(through.dayNumber - from.dayNumber + 1, 0), 1 << 16)))
        try handOverHeatmapDays(
            of: series, from: from, through: through, timeZone: timeZone, source: source
        ) { day in days.append(consume day) }
        return Heatmap(bucket: Heatmap.bucketKey(for: series), days: days)
    }

    /// Calls `body` with each day of the heatmap of `series` over `from...through`, oldest
    /// first, computing a year at a time inside one read transaction: memory stays flat
    /// over any range, and every day comes from the same snapshot.
    ///
    /// - Warning: `body` runs inside a read transaction: keep it short and do not write to the store from it.
    public func forEachHeatmapDay(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone? = nil,
        source: String? = nil, _ body: (HeatmapDay) throws -> Void
    ) throws {
        try handOverHeatmapDays(
            of: series, from: from, through: through, timeZone: timeZone, source: source
        ) { day in try body(day) }
    }

    /// ``forEachHeatmapDay(of:from:through:timeZone:source:_:)`` handing each day over to
    /// `body`, which keeps it without a second reference to the figures the days share.
    private func handOverHeatmapDays(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone?,
        source: String?, _ body: (consuming HeatmapDay) throws -> Void
    ) throws {
        try read { snapshot in
            snapshot.region?.read(series)
            try snapshot.engine.queries.forEachHeatmapDay(
                of: series, from: from, through: through,
                zone: timeZone ?? snapshot.engine.timeZone, source: source,
                in: snapshot.transaction, body)
        }
    }
}
