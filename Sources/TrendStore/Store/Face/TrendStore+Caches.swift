import Foundation
import LMDB

/// The cache as a whole: clearing, listing, legacy cache files imported, the migrations had,
/// the counters. Each aggregate's cached forms stand beside it (`StoreReader+DayCurves`, …).
extension TrendStore {
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
