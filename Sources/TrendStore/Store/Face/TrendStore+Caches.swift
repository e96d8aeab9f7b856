import Foundation
import LMDB

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

    /// Today's curve and move goal, recomputed and stored in the today cache.
    ///
    /// Pass the goal the host just read; pass `nil` when it could not read one, and the
    /// cached goal is kept. If computing fails, the cached snapshot is returned marked
    /// stale; it is also marked stale when its latest sample is not from today.
    public func refreshedToday(
        of series: String, moveGoal: Double? = nil, now: Date? = nil, timeZone: TimeZone? = nil
    ) throws -> Cached<TodaySnapshot> {
        let now = now ?? engine.clock()
        let zone = timeZone ?? engine.timeZone
        let cached = try cachedToday(of: series, timeZone: zone)
        return try engine.caches.refreshed(cached, isFresh: false) {
            try engine.write { txn, _ in
                let curve = try engine.queries.todayCurve(of: series, now: now, zone: zone, in: txn)
                return try engine.caches.store(
                    TodayCache.self,
                    TodaySnapshot(curve: curve, moveGoal: moveGoal ?? cached?.value.moveGoal),
                    of: series, zone: zone, now: now,
                    window: TodayCache.window(of: curve, zone: zone), in: txn)
            }
        }
    }

    /// The today cache of `series` computed in `timeZone` (default: the store's), as stored,
    /// or `nil`; `isStale` by the same-day rule at the store's clock.
    public nonisolated func cachedToday(of series: String, timeZone: TimeZone? = nil) throws
        -> Cached<TodaySnapshot>?
    {
        let now = engine.clock()
        let zone = timeZone ?? engine.timeZone
        return try engine.read { txn in
            try engine.caches.cached(TodayCache.self, of: series, zone: zone, now: now, in: txn)
        }
    }

    /// Removes cached aggregates: all of them, one series' or one key's.
    ///
    /// - Returns: How many payloads were removed.
    @discardableResult
    public func clearCache(_ scope: CacheScope) throws -> Int {
        try engine.write { txn, _ in try engine.caches.clear(scope, in: txn) }
    }

    /// Every cached aggregate with its key, zone, computedAt, schema version and freshness at `now`.
    public nonisolated func cacheEntries(now: Date? = nil) throws -> [CacheEntryInfo] {
        let now = now ?? engine.clock()
        return try engine.read { txn in try engine.caches.entries(now: now, in: txn) }
    }

    /// Stores a schema-v1 average (one pattern for all days, as `average-data-cache.json`
    /// held it) and migrates it to the seven v2 weekday averages at once, as opening a
    /// store migrates a v1 key.
    ///
    /// - Parameters:
    ///   - series: The series the average belongs to.
    ///   - pattern: The 24 cumulative values at the end of each hour.
    ///   - projectedTotal: The day total the old app projected.
    ///   - computedAt: When the old app computed it (its `cachedAt`).
    public func importV1Average(
        of series: String, pattern: [Double], projectedTotal: Double, computedAt: Date
    ) throws {
        guard pattern.count == 24, pattern.allSatisfy(\.isFinite), projectedTotal.isFinite else {
            throw StoreError.invalidArgument(
                .cachedFigures,
                reason: "a v1 average needs 24 finite hourly values and a finite projected total")
        }
        try engine.write { txn, _ in
            let average = V1Average(pattern: pattern, projectedTotal: projectedTotal)
            try engine.caches.putPayload(
                average.payload(computedAt: computedAt.millisecondsSince1970),
                forKey: SchemaKey.v1Average(series), in: txn)
            try V1AverageMigration.convert(
                series: series, context: engine.migrationContext, txn: txn, now: engine.clock())
        }
    }

    /// Stores a weekday average imported from a legacy cache file (`average-data-cache-v2.json`),
    /// keeping its `computedAt` so the freshness rules decide when it is refreshed; it is
    /// filed under the store's zone, the zone such files were read in.
    public func importWeekdayAverage(
        of series: String, weekday: Weekday, pattern: [Double], projectedTotal: Double,
        computedAt: Date
    ) throws {
        guard pattern.count == 24, pattern.allSatisfy(\.isFinite),
            projectedTotal.isFinite
        else {
            throw StoreError.invalidArgument(
                .cachedFigures,
                reason:
                    "a weekday average needs 24 finite hourly values and a finite projected total"
            )
        }
        let average = WeekdayAverage(
            series: series, weekday: weekday, days: [], averageHourlyPattern: pattern,
            projectedTotal: projectedTotal)
        try engine.write { txn, _ in
            try engine.caches.put(
                WeekdayAverageCache.self, average, of: series,
                variant: WeekdayAverageCache.variant(weekday), zone: engine.timeZone,
                computedAt: computedAt, window: 0..<0, imported: true, in: txn)
        }
    }

    /// Stores a today cache imported from a legacy `energy-data.json`.
    public func importToday(_ snapshot: TodaySnapshot, computedAt: Date) throws {
        guard snapshot.curve.cumulative.count == 24,
            snapshot.curve.cumulative.allSatisfy(\.isFinite)
        else {
            throw StoreError.invalidArgument(
                .cachedFigures, reason: "a today curve needs 24 finite hourly values")
        }
        try engine.write { txn, _ in
            try engine.caches.put(
                TodayCache.self, snapshot, of: snapshot.curve.series, zone: engine.timeZone,
                computedAt: computedAt, window: 0..<0, imported: true, in: txn)
        }
    }

    /// The migrations this store has had, oldest first.
    public nonisolated func appliedMigrations() throws -> [String] {
        try engine.read { txn in try Migrator.applied(engine.migrationContext, in: txn) }
    }

    /// What the caches have met since the store was opened.
    public nonisolated var cacheStatistics: CacheStatistics {
        engine.caches.counters.withLock { $0 }
    }
}
