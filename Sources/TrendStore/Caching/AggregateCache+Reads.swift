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

    /// The stored figures of the kind `figures` for `subject` (a series, or a heatmap bucket)
    /// and `variant`, computed in `zone`; `nil` when missing, unreadable or of another kind
    /// (both counted in the statistics). Stale when the kind's rule calls for a refresh at `now`.
    func cached<Figures: CachedFigures, T: ReadableTransaction & ~Copyable>(
        _ figures: Figures.Type, of subject: String, variant: String? = nil, zone: TimeZone,
        now: Date, in txn: borrowing T
    ) throws -> Cached<Figures.Value>? {
        let key = SchemaKey.key(figures, subject: subject, zone: zone, variant: variant)
        guard case .found(let payload) = try readablePayload(key, in: txn) else { return nil }
        guard var cached = payload.cached(figures, subject: subject, variant: variant) else {
            counters.withLock { $0.unreadablePayloads += 1 }
            return nil
        }
        cached.isStale = Figures.isStale(
            cached.value, computedAt: cached.computedAt, variant: variant, now: now, zone: zone)
        return cached
    }
}
