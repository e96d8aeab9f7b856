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
    /// The `aggregates` database.
    let aggregates: Database
    /// The name of ``aggregates``' database.
    static let databaseName = "aggregates"
    /// What the caches have met since the store was opened.
    let counters = Mutex(CacheStatistics())

    init(environment: Environment) throws {
        aggregates = try environment.openDatabase(named: Self.databaseName)
    }

    /// The payload stored under `key`.
    func payload<T: ReadableTransaction & ~Copyable>(_ key: String, in txn: borrowing T) throws
        -> StoredPayload
    {
        let keyBytes = Array(key.utf8)
        let result: StoredPayload? = try keyBytes.withUnsafeBytes { keyBytes in
            try txn.withValue(forKey: keyBytes, in: aggregates) { bytes -> StoredPayload in
                guard let payload = try? AggregatePayload(bytes: bytes) else { return .unreadable }
                return .found(payload)
            }
        }
        return result ?? .missing
    }

    func putPayload(
        _ payload: AggregatePayload, forKey key: String, in txn: borrowing WriteTransaction
    ) throws {
        try txn.put(payload.encoded(), forKey: Array(key.utf8), in: aggregates)
    }

    /// The keys of the `aggregates` database starting with `prefix`, in order.
    func aggregateKeys<T: ReadableTransaction & ~Copyable>(prefix: String, in txn: borrowing T)
        throws -> [String]
    {
        let prefixBytes = Array(prefix.utf8)
        return try txn.withCursor(aggregates) { cursor in
            var keys: [String] = []
            try cursor.forEach(from: prefixBytes) { key, _ in
                guard key.starts(with: prefixBytes) else { return false }
                keys.append(String(decoding: key, as: UTF8.self))
                return true
            }
            return keys
        }
    }

    /// Removes the cached aggregates of `series` whose window shares time with `touched`,
    /// inside the transaction that wrote the samples, so a cached figure never disagrees
    /// with the samples beside it. Every zone's payloads are checked.
    func invalidate(
        series: String, touching touched: Range<Int64>, in txn: borrowing WriteTransaction
    ) throws {
        for key in try keys(of: series, includingHeatmaps: true, in: txn) {
            let keyBytes = Array(key.utf8)
            let window: Range<Int64>?? = try keyBytes.withUnsafeBytes { keyBytes in
                try txn.withValue(forKey: keyBytes, in: aggregates) {
                    AggregatePayload.window(of: $0)
                }
            }
            // Unreadable payloads go too: they would be rebuilt anyway.
            if let window, window.map({ $0.overlaps(touched) }) ?? true {
                try txn.delete(forKey: keyBytes, in: aggregates)
            }
        }
    }

    /// Removes every cached payload of `series` (not the heatmap buckets it shares with
    /// others); returns how many there were.
    func removeAll(of series: String, in txn: borrowing WriteTransaction) throws -> Int {
        let keys = try keys(of: series, includingHeatmaps: false, in: txn)
        for key in keys { try txn.delete(forKey: Array(key.utf8), in: aggregates) }
        return keys.count
    }

    /// The keys of the payloads of `series` in every zone: its weekday averages, today
    /// cache and v1 average, and optionally the heatmap buckets that include it.
    private func keys<T: ReadableTransaction & ~Copyable>(
        of series: String, includingHeatmaps: Bool, in txn: borrowing T
    ) throws -> [String] {
        var keys: [String] = []
        for prefix in SchemaKey.prefixes(of: series) {
            keys += try aggregateKeys(prefix: prefix, in: txn)
        }
        let v1 = SchemaKey.v1Average(series)
        if try txn.value(forKey: Array(v1.utf8), in: aggregates) != nil { keys.append(v1) }
        if includingHeatmaps {
            let name = SeriesName.normalized(series)
            keys += try aggregateKeys(prefix: SchemaKey.heatmapPrefix, in: txn).filter { key in
                SchemaKey.parse(key).map {
                    Heatmap.seriesNames(inBucket: $0.subject).contains(name)
                } ?? false
            }
        }
        return keys
    }
}
