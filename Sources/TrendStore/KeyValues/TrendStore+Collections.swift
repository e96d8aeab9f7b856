import Foundation
import LMDB

/// A backend's answer about one cached collection (a typed-cache namespace).
public enum CollectionValidation: Sendable {
    /// The cached entries are current.
    case keep
    /// The cached entries are out of date: remove them.
    case invalidate
    /// Replace the cached entries with these, encoded as the collection's ``TypedCache`` encodes them.
    case replace([(key: Data, value: Data)], lifetime: TimeInterval)
}

extension TrendStore {
    /// When each typed-cache collection was last written, to send to a backend that says what is stale.
    ///
    /// - Returns: The latest insertion time of each namespace holding entries.
    public nonisolated func collectionTimestamps() throws -> [String: Date] {
        try engine.read { txn in
            var latest: [String: Int64] = [:]
            try engine.keyValues.forEachEntry(in: txn) { key, value in
                guard let separator = key.firstIndex(of: 0),
                    let entry = KeyValueEntry(Array(value))
                else { return }
                let namespace = String(decoding: key[..<separator], as: UTF8.self)
                latest[namespace] = max(latest[namespace] ?? .min, entry.insertedAt)
            }
            return latest.mapValues(Date.init(milliseconds:))
        }
    }

    /// Applies a backend's verdicts on several collections in one transaction: all of them, or none.
    public func applyValidation(_ verdicts: [String: CollectionValidation]) throws {
        let now = engine.clock().millisecondsSince1970
        try engine.write { txn, _ in
            for (namespace, verdict) in verdicts {
                let prefix = KeyValueTable.prefix(of: namespace)
                if case .keep = verdict { continue }
                for key in try KeyValueEntry.keys(namespace: prefix, engine: engine, txn: txn) {
                    try engine.keyValues.remove(forKey: key, in: txn)
                }
                if case .replace(let items, let lifetime) = verdict {
                    for item in items {
                        let entry = KeyValueEntry(
                            expiresAt: now + Int64(lifetime * 1000), lastUsed: now, insertedAt: now,
                            value: item.value)
                        try engine.keyValues.put(
                            entry.encoded(), forKey: prefix + Array(item.key), in: txn)
                    }
                }
            }
        }
    }
}
