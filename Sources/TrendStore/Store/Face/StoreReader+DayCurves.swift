import Foundation
import LMDB

/// Today's curve and a day's curve: computed in any snapshot, and today's through its cache.
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
}

extension TrendStore {
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
}
