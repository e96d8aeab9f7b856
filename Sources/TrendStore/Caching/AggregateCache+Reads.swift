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

    /// The stored weekday average computed in `zone`, or `nil` when missing or unreadable.
    func cachedWeekdayAverage<T: ReadableTransaction & ~Copyable>(
        _ series: String, weekday: Weekday, zone: TimeZone, in txn: borrowing T
    ) throws -> Cached<WeekdayAverage>? {
        guard
            case .found(let payload) = try readablePayload(
                SchemaKey.weekdayAverage(series, weekday: weekday, zone: zone), in: txn)
        else { return nil }
        guard let cached = payload.weekdayAverage(of: series, weekday: weekday) else {
            counters.withLock { $0.unreadablePayloads += 1 }
            return nil
        }
        return cached
    }

    /// The stored today cache of `series` computed in `zone`, or `nil`; stale by the
    /// same-day rule at `now` (``Freshness/isTodayStale(latestSampleTimestamp:now:timeZone:)``).
    func cachedToday<T: ReadableTransaction & ~Copyable>(
        _ series: String, zone: TimeZone, now: Date, in txn: borrowing T
    ) throws -> Cached<TodaySnapshot>? {
        guard
            case .found(let payload) = try readablePayload(
                SchemaKey.today(series, zone: zone), in: txn),
            var cached = payload.today(of: series)
        else { return nil }
        cached.isStale = Freshness.isTodayStale(
            latestSampleTimestamp: cached.value.curve.latestSampleTimestamp, now: now,
            timeZone: zone)
        return cached
    }

    /// The stored heatmap bucket under `key`, or `nil` when missing, of another kind or
    /// unreadable (counted).
    func cachedHeatmap<T: ReadableTransaction & ~Copyable>(_ key: String, in txn: borrowing T)
        throws -> Cached<HeatmapBucket>?
    {
        guard case .found(let payload) = try readablePayload(key, in: txn),
            payload.kind == .heatmap
        else { return nil }
        guard let cached = payload.heatmapBucket() else {
            counters.withLock { $0.unreadablePayloads += 1 }
            return nil
        }
        return cached
    }
}
