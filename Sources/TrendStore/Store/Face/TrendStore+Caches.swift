import Foundation
import LMDB

/// Which cached aggregates a clear removes.
public enum CacheScope: Sendable, Equatable {
    /// Every cached aggregate.
    case all
    /// Every cached aggregate of one series.
    case series(String)
    /// One key, such as `v2/weekday-average/activeEnergy/3`.
    case key(String)
}

/// One cached aggregate, as `trendstore cache list` shows it.
public struct CacheEntryInfo: Sendable, Codable, Equatable {
    /// The versioned key.
    public var key: String
    /// The zone the figures were computed for, or `nil` for a v1 payload (which has none).
    public var timeZone: String?
    /// When the payload was computed, or `nil` when it cannot be read.
    public var computedAt: Date?
    /// The schema version it was written with, or `nil` when it cannot be read.
    public var schemaVersion: Int?
    /// Whether it was seeded by a migration.
    public var migrated: Bool
    /// Whether the freshness rules let it be served at the time asked about.
    public var fresh: Bool
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
            try engine.caches.cachedWeekdayAverage(series, weekday: weekday, zone: zone, in: txn)
                .map {
                    cached in
                    var cached = cached
                    cached.isStale = Freshness.mustRefreshWeekdayAverage(
                        computedAt: cached.computedAt, weekday: weekday, now: now, timeZone: zone)
                    return cached
                }
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
        let cached = try engine.read { txn in
            try engine.caches.cachedWeekdayAverage(series, weekday: weekday, zone: zone, in: txn)
        }
        if let cached,
            !Freshness.mustRefreshWeekdayAverage(
                computedAt: cached.computedAt, weekday: weekday, now: now, timeZone: zone)
        {
            return cached
        }
        do {
            return try engine.write { txn, _ in
                let (averages, window) = try engine.queries.weekdayAverages(
                    of: series, weekdays: [weekday], now: now, options: WeekdayAverageOptions(),
                    zone: zone, in: txn)
                if averages[0].dayCount == 0, var fallback = cached, fallback.isMigrated {
                    fallback.isStale = true
                    return fallback
                }
                let payload = AggregatePayload(
                    kind: .weekdayAverage, schemaVersion: UInt8(SchemaKey.currentVersion),
                    computedAt: now.millisecondsSince1970,
                    window: window, body: PayloadBodies.encode(averages[0]))
                try engine.caches.putPayload(
                    payload, forKey: SchemaKey.weekdayAverage(series, weekday: weekday, zone: zone),
                    in: txn)
                return Cached(
                    value: averages[0], computedAt: Date(milliseconds: now.millisecondsSince1970),
                    schemaVersion: SchemaKey.currentVersion)
            }
        } catch {
            engine.caches.counters.withLock { $0.failedRefreshes += 1 }
            guard var cached else { throw error }
            cached.isStale = true
            return cached
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
        do {
            return try engine.write { txn, _ in
                let curve = try engine.queries.todayCurve(of: series, now: now, zone: zone, in: txn)
                let snapshot = TodaySnapshot(
                    curve: curve, moveGoal: moveGoal ?? cached?.value.moveGoal)
                let grid = LocalDayGrid(zone: zone, from: curve.date, through: curve.date)
                let bounds = grid.bounds(of: curve.date)
                let payload = AggregatePayload(
                    kind: .today, schemaVersion: UInt8(SchemaKey.currentVersion),
                    computedAt: now.millisecondsSince1970,
                    window: bounds.start..<bounds.end, body: PayloadBodies.encode(snapshot))
                try engine.caches.putPayload(
                    payload, forKey: SchemaKey.today(series, zone: zone), in: txn)
                return Cached(
                    value: snapshot, computedAt: Date(milliseconds: now.millisecondsSince1970),
                    schemaVersion: SchemaKey.currentVersion,
                    isStale: Freshness.isTodayStale(
                        latestSampleTimestamp: curve.latestSampleTimestamp, now: now, timeZone: zone
                    ))
            }
        } catch {
            engine.caches.counters.withLock { $0.failedRefreshes += 1 }
            guard var cached else { throw error }
            cached.isStale = true
            return cached
        }
    }

    /// The today cache of `series` computed in `timeZone` (default: the store's), as stored,
    /// or `nil`; `isStale` by the same-day rule at the store's clock.
    public nonisolated func cachedToday(of series: String, timeZone: TimeZone? = nil) throws
        -> Cached<TodaySnapshot>?
    {
        let now = engine.clock()
        let zone = timeZone ?? engine.timeZone
        return try engine.read { txn -> Cached<TodaySnapshot>? in
            guard
                case .found(let payload) = try engine.caches.readablePayload(
                    SchemaKey.today(series, zone: zone), in: txn),
                payload.kind == .today,
                let snapshot = try? PayloadBodies.today(series: series, payload.body)
            else { return nil }
            return Cached(
                value: snapshot, computedAt: Date(milliseconds: payload.computedAt),
                schemaVersion: Int(payload.schemaVersion),
                isMigrated: payload.migrated, isImported: payload.imported,
                isStale: Freshness.isTodayStale(
                    latestSampleTimestamp: snapshot.curve.latestSampleTimestamp, now: now,
                    timeZone: zone))
        }
    }

    /// Removes cached aggregates: all of them, one series' or one key's.
    ///
    /// - Returns: How many payloads were removed.
    @discardableResult
    public func clearCache(_ scope: CacheScope) throws -> Int {
        try engine.write { txn, _ in
            switch scope {
            case .all:
                let keys = try engine.caches.aggregateKeys(prefix: "", in: txn)
                for key in keys {
                    try engine.caches.removePayload(forKey: key, in: txn)
                }
                return keys.count
            case .series(let series):
                return try engine.caches.removeAll(of: series, in: txn)
            case .key(let key):
                return try engine.caches.removePayload(forKey: key, in: txn) ? 1 : 0
            }
        }
    }

    /// Every cached aggregate with its key, zone, computedAt, schema version and freshness at `now`.
    public nonisolated func cacheEntries(now: Date? = nil) throws -> [CacheEntryInfo] {
        let now = now ?? engine.clock()
        return try engine.read { txn in
            try engine.caches.aggregateKeys(prefix: "", in: txn).map { key in
                let parsed = SchemaKey.parse(key)
                let zone = parsed.flatMap { TimeZone(identifier: $0.zoneIdentifier) }
                guard case .found(let payload) = try engine.caches.payload(key, in: txn) else {
                    return CacheEntryInfo(
                        key: key, timeZone: parsed?.zoneIdentifier, computedAt: nil,
                        schemaVersion: nil, migrated: false, fresh: false)
                }
                let computedAt = Date(milliseconds: payload.computedAt)
                let fresh: Bool
                switch (payload.kind, parsed?.kind, zone) {
                case (.weekdayAverage, .weekdayAverage(let weekday), let zone?):
                    fresh = !Freshness.mustRefreshWeekdayAverage(
                        computedAt: computedAt, weekday: weekday, now: now, timeZone: zone)
                case (.today, .today, let zone?):
                    let snapshot = try? PayloadBodies.today(series: "", payload.body)
                    fresh = !Freshness.isTodayStale(
                        latestSampleTimestamp: snapshot?.curve.latestSampleTimestamp, now: now,
                        timeZone: zone)
                case (.heatmap, .heatmap, _):
                    fresh = Freshness.isFresh(
                        computedAt: computedAt, maxAge: Freshness.heatmapListingMaximumAge, now: now
                    )
                default:
                    // A v1 average, or a payload whose kind disagrees with its key.
                    fresh = false
                }
                return CacheEntryInfo(
                    key: key, timeZone: parsed?.zoneIdentifier, computedAt: computedAt,
                    schemaVersion: Int(payload.schemaVersion), migrated: payload.migrated,
                    fresh: fresh)
            }
        }
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
            let payload = AggregatePayload(
                kind: .v1Average, schemaVersion: 1, imported: true,
                computedAt: computedAt.millisecondsSince1970, window: 0..<0,
                body: PayloadBodies.encode(
                    V1Average(pattern: pattern, projectedTotal: projectedTotal)))
            try engine.caches.putPayload(payload, forKey: SchemaKey.v1Average(series), in: txn)
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
        try engine.storePayload(
            .weekdayAverage, body: PayloadBodies.encode(average),
            forKey: SchemaKey.weekdayAverage(series, weekday: weekday, zone: engine.timeZone),
            computedAt: computedAt, imported: true)
    }

    /// Stores a today cache imported from a legacy `energy-data.json`.
    public func importToday(_ snapshot: TodaySnapshot, computedAt: Date) throws {
        guard snapshot.curve.cumulative.count == 24,
            snapshot.curve.cumulative.allSatisfy(\.isFinite)
        else {
            throw StoreError.invalidArgument(
                .cachedFigures, reason: "a today curve needs 24 finite hourly values")
        }
        try engine.storePayload(
            .today, body: PayloadBodies.encode(snapshot),
            forKey: SchemaKey.today(snapshot.curve.series, zone: engine.timeZone),
            computedAt: computedAt, imported: true)
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
