import Foundation
import LMDB

/// One consistent view of a store, for several queries that must agree with each other.
///
/// You get one inside ``TrendStore/read(_:)``: every query on it reads the same committed
/// state, so a screen's today curve, weekday average and heatmap never mix a write that
/// landed between them.
///
/// ```swift
/// let (today, mondays) = try store.read { snapshot in
///     (try snapshot.todayCurve(of: "activeEnergy"),
///      try snapshot.weekdayAverage(of: "activeEnergy", weekday: .monday))
/// }
/// ```
///
/// It cannot outlive the closure (it is not copyable and is lent, not given); the
/// transaction behind it ends when the closure returns, so keep the closure short and
/// never `await` inside it.
public struct StoreSnapshot: ~Copyable {
    let engine: StoreEngine
    /// The read transaction, lent for as long as the closure that received this snapshot runs.
    let transaction: LentReadTransaction
    /// Records what the queries read, for ``TrendStore/observe(every:_:)``; `nil` elsewhere.
    var region: ReadRegion? = nil

    /// Today's cumulative hourly curve up to `now` (see
    /// ``TrendStore/todayCurve(of:now:timeZone:source:)``).
    public func todayCurve(
        of series: String, now: Date? = nil, timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> DayCurve {
        region?.read(series)
        region?.readClock(unless: now)
        return try engine.queries.todayCurve(
            of: series, now: now ?? engine.clock(), zone: timeZone ?? engine.timeZone,
            source: source, in: transaction)
    }

    /// Interval statistics of `series` (see
    /// ``TrendStore/statistics(of:from:to:interval:anchor:timeZone:options:source:)``).
    public func statistics(
        of series: String, from: Date, to: Date, interval: StatisticsInterval,
        anchor: Date? = nil, timeZone: TimeZone? = nil, options: StatisticsOptions,
        source: String? = nil
    ) throws -> IntervalStatistics {
        region?.read(series)
        return try engine.queries.statistics(
            of: series, from: from, to: to, interval: interval, anchor: anchor,
            zone: timeZone ?? engine.timeZone, options: options, source: source, in: transaction)
    }

    /// The whole cumulative hourly curve of a local date: of every source merged, or of
    /// `source` alone.
    public func dayCurve(
        of series: String, on date: LocalDate, timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> DayCurve {
        region?.read(series)
        return try engine.queries.dayCurve(
            of: series, on: date, zone: timeZone ?? engine.timeZone, source: source,
            in: transaction)
    }

    /// The average cumulative pattern of one weekday over the days before today: of every
    /// source merged, or of `source` alone.
    public func weekdayAverage(
        of series: String, weekday: Weekday, now: Date? = nil,
        options: WeekdayAverageOptions = .init(), timeZone: TimeZone? = nil, source: String? = nil
    ) throws -> WeekdayAverage {
        try weekdayAverages(
            of: series, weekdays: [weekday], now: now, options: options, timeZone: timeZone,
            source: source)[0]
    }

    /// The average patterns of all seven weekdays, Sunday first: of every source merged, or
    /// of `source` alone.
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
        region?.read(series)
        region?.readClock(unless: now)
        return try engine.queries.weekdayAverages(
            of: series, weekdays: weekdays, now: now ?? engine.clock(), options: options,
            zone: timeZone ?? engine.timeZone, source: source, in: transaction
        ).averages
    }

    /// Calls `body` with each day of the heatmap of `series` over `from...through`: of every
    /// source merged, or of `source` alone (every series must have it).
    public func forEachHeatmapDay(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone? = nil,
        source: String? = nil, _ body: (HeatmapDay) throws -> Void
    ) throws {
        region?.read(series)
        try engine.queries.forEachHeatmapDay(
            of: series, from: from, through: through, zone: timeZone ?? engine.timeZone,
            source: source, in: transaction, body)
    }

    /// Per-day counts and totals of `series` for every local date in `from...through`: of
    /// every source merged, or of `source` alone (every series must have it).
    public func heatmap(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone? = nil,
        source: String? = nil
    ) throws -> Heatmap {
        var days: [HeatmapDay] = []
        days.reserveCapacity(Int(min(max(through.dayNumber - from.dayNumber + 1, 0), 1 << 16)))
        try forEachHeatmapDay(
            of: series, from: from, through: through, timeZone: timeZone, source: source
        ) {
            days.append($0)
        }
        return Heatmap(
            bucket: Heatmap.bucketKey(for: series), days: days)
    }

    /// The samples of `series` that start in `[from, to)`, sorted by start then end: those of
    /// `source` alone, or (`nil`) of every source.
    public func samples(of series: String, from: Date, to: Date, source: String? = nil) throws
        -> [Sample]
    {
        region?.read(series)
        let (low, high) = (from.millisecondsSince1970, to.millisecondsSince1970)
        if let source {
            let stream = try engine.stream(of: series, source: source, in: transaction)
            return try engine.storage.samples(
                of: stream.record, from: low, to: high, in: transaction, zlib: ZlibCodec())
        }
        let record = try engine.storage.requireSeries(named: series, in: transaction)
        var all: [Sample] = []
        for stream in try engine.storage.streams(of: record, in: transaction) {
            all += try engine.storage.samples(
                of: stream.record, from: low, to: high, in: transaction, zlib: ZlibCodec())
        }
        if record.hasSources {
            all.sort {
                ($0.startMilliseconds, $0.endMilliseconds) < (
                    $1.startMilliseconds, $1.endMilliseconds
                )
            }
        }
        return all
    }

    /// The sources of `series` in its priority order, highest first, with what each holds:
    /// every source that wrote samples, and the default source of a series without others.
    public func sources(of series: String) throws -> [SourceInfo] {
        region?.read(series)
        return try engine.sources(of: series, in: transaction)
    }

    /// The priority order set for `series` (``TrendStore/setSourcePriority(_:for:)``);
    /// empty when none was set and the default order applies.
    public func sourcePriority(of series: String) throws -> [String] {
        region?.read(series)
        let record = try engine.storage.requireSeries(named: series, in: transaction)
        return try engine.storage.sources?.priority(of: record.id, in: transaction) ?? []
    }

    /// Calls `body` with the samples of `series` that start in `[from, to)` written by
    /// `source` (`nil`: the default source), one stored block (a few thousand samples) at a
    /// time, sorted by start then end: a scan of any length in flat memory, all of it from
    /// this snapshot (an export is a state that existed; it walks each of ``sources(of:)``).
    ///
    /// - Throws: ``StoreError/Code/unknownSeries`` for a series the store does not
    ///   hold; ``StoreError/Code/storage`` with `MDB_CORRUPTED` before
    ///   the first block when a damaged page hides blocks from the walk; what `body` throws.
    public func forEachSampleBatch(
        of series: String, from: Date, to: Date, source: String? = nil,
        _ body: ([Sample]) throws -> Void
    ) throws {
        region?.read(series)
        var record = try engine.storage.requireSeries(named: series, in: transaction)
        if record.hasSources || source != nil {
            record = try engine.stream(
                of: series, source: source ?? SourceName.defaultSource, in: transaction
            ).record
        }
        try engine.storage.checkReach(in: transaction)
        var position = from.millisecondsSince1970
        let end = to.millisecondsSince1970
        while position < end {
            let samples = try engine.nextBlock(
                of: record, from: position, before: end, in: transaction)
            guard let last = samples.last else { return }
            // Samples sharing a start are never split between blocks.
            position = last.startMilliseconds + 1
            try body(samples)
        }
    }

    /// The unit of `series`, or `nil` when no such series exists.
    public func unit(of series: String) throws -> String? {
        try engine.storage.seriesRecord(named: series, in: transaction)?.unit
    }

    /// The kind of `series`, or `nil` when no such series exists.
    public func kind(of series: String) throws -> SeriesKind? {
        try engine.storage.seriesRecord(named: series, in: transaction)?.kind
    }

    /// Every series with its unit, sample count and time span.
    public func series() throws -> [SeriesInfo] {
        region?.readEverySeries()
        return try engine.storage.seriesInfos(in: transaction)
    }
}

extension TrendStore {
    /// Runs `body` with one consistent snapshot of the store, so several queries agree.
    ///
    /// The snapshot is one LMDB read transaction: it sees the writes committed before it
    /// began, by this process or another, and none after. Writers are never blocked by it.
    ///
    /// - Warning: Keep `body` short and synchronous: a long-lived read transaction keeps
    ///   the pages it sees from being reused, so the file grows while it runs.
    public nonisolated func read<R>(_ body: (borrowing StoreSnapshot) throws -> R) throws -> R {
        try engine.read { txn in
            try Transactions.lend(txn) { transaction in
                try body(StoreSnapshot(engine: engine, transaction: transaction))
            }
        }
    }
}
