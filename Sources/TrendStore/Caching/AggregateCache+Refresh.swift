import Foundation
import LMDB

/// How cached aggregates are refreshed and stored: the rule every kind follows when
/// computing fails, and the payload each kind stores (``AggregatePayload``'s makers).
extension AggregateCache {
    /// The refresh rule of every cached aggregate: `cached` while `isFresh`; else what
    /// `refresh` computes and stores; should that throw, the last good `cached` marked stale
    /// (counted as a failed refresh), or the error when nothing was cached.
    func refreshed<Value>(
        _ cached: Cached<Value>?, isFresh: Bool, _ refresh: () throws -> Cached<Value>
    ) throws -> Cached<Value> {
        if let cached, isFresh { return cached }
        do {
            return try refresh()
        } catch {
            counters.withLock { $0.failedRefreshes += 1 }
            guard var cached else { throw error }
            cached.isStale = true
            return cached
        }
    }

    /// Stores `average`, computed at `now` from the instants `window`, as the weekday average
    /// of `series` in `zone`.
    func store(
        _ average: WeekdayAverage, window: Range<Int64>, of series: String, zone: TimeZone,
        now: Date, in txn: borrowing WriteTransaction
    ) throws -> Cached<WeekdayAverage> {
        let payload = AggregatePayload.weekdayAverage(
            average, computedAt: now.millisecondsSince1970, window: window)
        try putPayload(
            payload, forKey: SchemaKey.weekdayAverage(series, weekday: average.weekday, zone: zone),
            in: txn)
        return Cached(
            value: average, computedAt: Date(milliseconds: payload.computedAt),
            schemaVersion: SchemaKey.currentVersion)
    }

    /// Stores `snapshot`, computed at `now`, as the today cache of `series` in `zone` (its
    /// window the local day of its curve); stale when its latest sample is not from today.
    func store(
        _ snapshot: TodaySnapshot, of series: String, zone: TimeZone, now: Date,
        in txn: borrowing WriteTransaction
    ) throws -> Cached<TodaySnapshot> {
        let date = snapshot.curve.date
        let bounds = LocalDayGrid(zone: zone, from: date, through: date).bounds(of: date)
        let payload = AggregatePayload.today(
            snapshot, computedAt: now.millisecondsSince1970, window: bounds.start..<bounds.end)
        try putPayload(payload, forKey: SchemaKey.today(series, zone: zone), in: txn)
        return Cached(
            value: snapshot, computedAt: Date(milliseconds: payload.computedAt),
            schemaVersion: SchemaKey.currentVersion,
            isStale: Freshness.isTodayStale(
                latestSampleTimestamp: snapshot.curve.latestSampleTimestamp, now: now,
                timeZone: zone))
    }
}
