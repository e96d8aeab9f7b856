import Foundation
import LMDB

extension AggregateCache {
    /// The payload under `key`, counting an unreadable one in the statistics.
    func readablePayload<T: ReadableTransaction & ~Copyable>(_ key: String, in txn: borrowing T)
        throws -> StoredPayload
    {
        let stored = try payload(key, in: txn)
        if case .unreadable = stored { counters.withLock { $0.unreadablePayloads += 1 } }
        return stored
    }

    /// The stored weekday average computed in `zone`, or `nil` when missing or unreadable;
    /// stale when the freshness rules call for a refresh at `now`
    /// (``Freshness/mustRefreshWeekdayAverage(computedAt:weekday:now:timeZone:)``).
    func cachedWeekdayAverage<T: ReadableTransaction & ~Copyable>(
        _ series: String, weekday: Weekday, zone: TimeZone, now: Date, in txn: borrowing T
    ) throws -> Cached<WeekdayAverage>? {
        guard
            var cached = try cached(
                SchemaKey.weekdayAverage(series, weekday: weekday, zone: zone), in: txn,
                { $0.weekdayAverage(of: series, weekday: weekday) })
        else { return nil }
        cached.isStale = Freshness.mustRefreshWeekdayAverage(
            computedAt: cached.computedAt, weekday: weekday, now: now, timeZone: zone)
        return cached
    }

    /// The stored today cache of `series` computed in `zone`, or `nil`; stale by the
    /// same-day rule at `now` (``Freshness/isTodayStale(latestSampleTimestamp:now:timeZone:)``).
    func cachedToday<T: ReadableTransaction & ~Copyable>(
        _ series: String, zone: TimeZone, now: Date, in txn: borrowing T
    ) throws -> Cached<TodaySnapshot>? {
        guard
            var cached = try cached(
                SchemaKey.today(series, zone: zone), in: txn, { $0.today(of: series) })
        else { return nil }
        cached.isStale = Freshness.isTodayStale(
            latestSampleTimestamp: cached.value.curve.latestSampleTimestamp, now: now,
            timeZone: zone)
        return cached
    }

    /// The stored heatmap bucket under `key`, or `nil` when missing or unreadable.
    func cachedHeatmap<T: ReadableTransaction & ~Copyable>(_ key: String, in txn: borrowing T)
        throws -> Cached<HeatmapBucket>?
    {
        try cached(key, in: txn) { $0.heatmapBucket() }
    }

    /// What `read` finds in the payload under `key`; `nil` when there is none, or when it is
    /// unreadable or `read` finds nothing in it (of another kind, or a body that does not
    /// decode), both counted in the statistics.
    private func cached<T: ReadableTransaction & ~Copyable, Value>(
        _ key: String, in txn: borrowing T, _ read: (AggregatePayload) -> Cached<Value>?
    ) throws -> Cached<Value>? {
        guard case .found(let payload) = try readablePayload(key, in: txn) else { return nil }
        guard let cached = read(payload) else {
            counters.withLock { $0.unreadablePayloads += 1 }
            return nil
        }
        return cached
    }
}
