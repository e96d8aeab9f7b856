import Foundation
import LMDB

/// A today cache a write removed, kept to be computed again in the same transaction.
struct RemovedToday {
    let key: String
    let parsed: SchemaKey.Parsed
    let payload: AggregatePayload
}

extension AggregateCache {
    /// Computes again, from the rollups `txn` has written, each removed today cache whose
    /// local day holds `now`, and stores it under its key with the move goal it had: a
    /// widget reading the cache between a write and the app's next refresh still finds
    /// today's figure. Today's curve reads one local day of rollup rows, a few
    /// microseconds; the others (weekday averages, heatmaps, a past day's today cache) stay
    /// removed until a refresh computes them.
    func rewrite(
        _ removed: [RemovedToday], now: Date, queries: Queries, in txn: borrowing WriteTransaction
    ) throws {
        let instant = now.millisecondsSince1970
        for today in removed where today.payload.window.contains(instant) {
            guard let zone = TimeZone(identifier: today.parsed.zoneIdentifier),
                let old = today.payload.cached(
                    TodayCache.self, subject: today.parsed.subject, variant: nil)
            else { continue }
            let curve = try queries.todayCurve(
                of: today.parsed.subject, now: now, zone: zone, in: txn)
            let payload = try AggregatePayload(
                TodayCache.self, TodaySnapshot(curve: curve, moveGoal: old.value.moveGoal),
                computedAt: instant, window: today.payload.window)
            try putPayload(payload, forKey: today.key, in: txn)
        }
    }
}
