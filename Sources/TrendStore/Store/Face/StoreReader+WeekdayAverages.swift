import Foundation
import LMDB

/// Weekday averages: computed in any snapshot, and through their cache.
extension StoreReader where Self: ~Copyable {
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
}

extension TrendStore {
    /// The cached weekday average of `series` for `weekday`, as stored, without refreshing it.
    ///
    /// `isStale` tells whether the freshness rules call for a refresh at `now`. A payload
    /// that cannot be decoded reads as `nil` (and is rebuilt by the next refresh).
    public nonisolated func cachedWeekdayAverage(
        of series: String, weekday: Weekday, now: Date? = nil, timeZone: TimeZone? = nil
    ) throws -> Cached<WeekdayAverage>? {
        let now = now ?? engine.clock()
        let zone = timeZone ?? engine.timeZone
        return try engine.read { txn in
            try engine.caches.cached(
                WeekdayAverageCache.self, of: series,
                variant: WeekdayAverageCache.variant(weekday), zone: zone, now: now, in: txn)
        }
    }

    /// The weekday average, from the cache when the freshness rules allow, else recomputed and stored.
    ///
    /// The cache is refreshed when it is missing or unreadable, older than 30 days, or
    /// when `weekday` is today's weekday, it is 06:00–09:00 and the cache predates 06:00
    /// today. If recomputing fails, the last good payload is returned marked stale. A
    /// migrated fallback is kept while the store has no samples for that weekday.
    ///
    /// - Parameters:
    ///   - series: The series name.
    ///   - weekday: The day of the week.
    ///   - now: The reference instant (default: the store's clock).
    ///   - timeZone: The zone of local days (default: the store's); the cache is kept per zone.
    public func refreshedWeekdayAverage(
        of series: String, weekday: Weekday, now: Date? = nil, timeZone: TimeZone? = nil
    ) throws -> Cached<WeekdayAverage> {
        let now = now ?? engine.clock()
        let zone = timeZone ?? engine.timeZone
        let cached = try cachedWeekdayAverage(
            of: series, weekday: weekday, now: now, timeZone: zone)
        return try engine.caches.refreshed(cached, isFresh: cached.map { !$0.isStale } ?? false) {
            try engine.write { txn, _ in
                let (averages, window) = try engine.queries.weekdayAverages(
                    of: series, weekdays: [weekday], now: now, options: WeekdayAverageOptions(),
                    zone: zone, in: txn)
                if averages[0].dayCount == 0, var fallback = cached, fallback.isMigrated {
                    fallback.isStale = true
                    return fallback
                }
                return try engine.caches.store(
                    WeekdayAverageCache.self, averages[0], of: series,
                    variant: WeekdayAverageCache.variant(weekday), zone: zone, now: now,
                    window: window, in: txn)
            }
        }
    }

    /// All seven weekday averages through the cache, refreshing those the rules call for
    /// (``Freshness/mustRefreshWeekdayAverage(computedAt:weekday:now:timeZone:)``).
    public func refreshedWeekdayAverages(
        of series: String, now: Date? = nil, timeZone: TimeZone? = nil
    ) throws -> [Cached<WeekdayAverage>] {
        try Weekday.allCases.map {
            try refreshedWeekdayAverage(of: series, weekday: $0, now: now, timeZone: timeZone)
        }
    }
}
