import Foundation
import LMDB

/// How cached aggregates are refreshed and stored: the rule every kind follows when
/// computing fails, and the one factory every kind's payload is stored through.
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

    /// Stores `value`, figures of the kind `figures` for `subject` and `variant` in `zone`,
    /// computed at `computedAt` from the instants `window` (empty when no write of samples
    /// should invalidate it: a host's or a legacy file's figures); `imported` when they came
    /// from a legacy cache file.
    func put<Figures: CachedFigures>(
        _ figures: Figures.Type, _ value: Figures.Value, of subject: String,
        variant: String? = nil, zone: TimeZone, computedAt: Date, window: Range<Int64>,
        imported: Bool = false, in txn: borrowing WriteTransaction
    ) throws {
        let payload = try AggregatePayload(
            figures, value, computedAt: computedAt.millisecondsSince1970, window: window,
            imported: imported)
        try putPayload(
            payload, forKey: SchemaKey.key(figures, subject: subject, zone: zone, variant: variant),
            in: txn)
    }

    /// Stores `value`, computed at `now` from the instants `window`, as
    /// ``put(_:_:of:variant:zone:computedAt:window:imported:in:)`` does, and returns it as a
    /// reader would find it: stale when the kind's rule already calls for a refresh.
    func store<Figures: CachedFigures>(
        _ figures: Figures.Type, _ value: Figures.Value, of subject: String,
        variant: String? = nil, zone: TimeZone, now: Date, window: Range<Int64>,
        in txn: borrowing WriteTransaction
    ) throws -> Cached<Figures.Value> {
        try put(
            figures, value, of: subject, variant: variant, zone: zone, computedAt: now,
            window: window, in: txn)
        return Cached(
            value: value, computedAt: Date(milliseconds: now.millisecondsSince1970),
            schemaVersion: SchemaKey.currentVersion,
            isStale: Figures.isStale(
                value, computedAt: now, variant: variant, now: now, zone: zone))
    }
}
