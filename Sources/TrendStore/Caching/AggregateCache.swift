import Foundation
import LMDB
import Synchronization

/// What reading a cached payload found.
enum StoredPayload {
    case missing
    case unreadable
    case found(AggregatePayload)
}

/// The cached aggregates of a store (the `aggregates` database): payloads under
/// ``SchemaKey`` keys, read, written, listed and invalidated inside the caller's transactions.
///
/// The caching layer: it knows the aggregate types it stores and the storage below; the
/// façade registers ``invalidate(series:touching:in:)`` on every write of samples.
final class AggregateCache: Sendable {
    /// The `aggregates` table.
    let payloads: PayloadTable
    /// What the caches have met since the store was opened.
    let counters = Mutex(CacheStatistics())
    /// The heatmap buckets' keys by series, told of every bucket written or removed here.
    private let heatmapKeys = HeatmapKeyIndex()

    /// The caches kept in `payloads`.
    init(payloads: PayloadTable) {
        self.payloads = payloads
    }

    /// The payload stored under `key`.
    func payload<T: ReadableTransaction & ~Copyable>(_ key: String, in txn: borrowing T) throws
        -> StoredPayload
    {
        let result: StoredPayload? = try payloads.withPayload(forKey: key, in: txn) { bytes in
            guard let payload = try? AggregatePayload(bytes: bytes) else { return .unreadable }
            return .found(payload)
        }
        return result ?? .missing
    }

    func putPayload(
        _ payload: AggregatePayload, forKey key: String, in txn: borrowing WriteTransaction
    ) throws {
        try payloads.put(payload.encoded(), forKey: key, in: txn)
        heatmapKeys.note(key, present: true, in: txn)
    }

    /// The keys of the cached payloads starting with `prefix`, in order.
    func aggregateKeys<T: ReadableTransaction & ~Copyable>(prefix: String, in txn: borrowing T)
        throws -> [String]
    {
        try payloads.keys(prefix: prefix, in: txn)
    }

    /// Removes the payload under `key`; whether there was one.
    @discardableResult
    func removePayload(forKey key: String, in txn: borrowing WriteTransaction) throws -> Bool {
        let removed = try payloads.remove(forKey: key, in: txn)
        heatmapKeys.note(key, present: false, in: txn)
        return removed
    }

    /// Removes the cached aggregates of `series` whose window shares time with `touched`,
    /// inside the transaction that wrote the samples, so a cached figure never disagrees
    /// with the samples beside it. Every zone's payloads are checked.
    ///
    /// - Returns: The today caches removed, for ``rewrite(_:now:queries:in:)`` to compute
    ///   again once the transaction's rollups are written.
    @discardableResult
    func invalidate(
        series: String, touching touched: Range<Int64>, in txn: borrowing WriteTransaction
    ) throws -> [RemovedToday] {
        var removedToday: [RemovedToday] = []
        let buckets = try heatmapKeys.keys(holding: SeriesName.normalized(series), in: txn) {
            try aggregateKeys(prefix: SchemaKey.heatmapPrefix, in: txn)
        }
        for key in try keys(of: series, in: txn) + buckets {
            let window: Range<Int64>?? = try payloads.withPayload(forKey: key, in: txn) {
                AggregatePayload.window(of: $0)
            }
            // Unreadable payloads go too: they would be rebuilt anyway.
            guard let window, window.map({ $0.overlaps(touched) }) ?? true else { continue }
            if let parsed = SchemaKey.parse(key), parsed.figures.kind == TodayCache.kind,
                case .found(let today) = try payload(key, in: txn), today.kind == TodayCache.kind
            {
                removedToday.append(RemovedToday(key: key, parsed: parsed, payload: today))
            }
            try removePayload(forKey: key, in: txn)
        }
        return removedToday
    }

    /// Removes every cached payload of `series` (not the heatmap buckets it shares with
    /// others); returns how many there were.
    func removeAll(of series: String, in txn: borrowing WriteTransaction) throws -> Int {
        let keys = try keys(of: series, in: txn)
        for key in keys { try removePayload(forKey: key, in: txn) }
        return keys.count
    }

    /// The keys of the payloads of `series` in every zone: its weekday averages, today
    /// cache and v1 average (not the heatmap buckets that include it).
    private func keys<T: ReadableTransaction & ~Copyable>(of series: String, in txn: borrowing T)
        throws -> [String]
    {
        var keys: [String] = []
        for prefix in SchemaKey.prefixes(of: series) {
            keys += try aggregateKeys(prefix: prefix, in: txn)
        }
        let v1 = SchemaKey.v1Average(series)
        if try payloads.withPayload(forKey: v1, in: txn, { _ in true }) != nil { keys.append(v1) }
        return keys
    }
}
