import LMDB
import Synchronization

/// The keys of the cached heatmap buckets, by the series each bucket holds: so a write of
/// samples finds the buckets of its series without reading every bucket's key.
///
/// Kept in memory, and trusted only in the write transaction that made it or in the next one
/// after it committed (``CommitMark``): after another process's commit, an aborted
/// transaction, or a write of the `aggregates` table the index was not told of, the next use
/// reads the keys again. A writable store stamps every commit that asks for a change, so
/// each of its commits that reaches the index is numbered.
final class HeatmapKeyIndex: Sendable {
    private struct Known {
        /// The transaction whose data `keys` describes.
        var mark: CommitMark
        /// Series name (NFC) → the keys of the buckets holding it.
        var keys: [String: Set<String>]
    }

    private let known = Mutex<Known?>(nil)

    /// The keys of the buckets that hold `series` (NFC), as `txn` sees them; `read` gives
    /// every bucket key when the index cannot be trusted.
    func keys(
        holding series: String, in txn: borrowing WriteTransaction,
        read: () throws -> [String]
    ) throws -> [String] {
        try current(in: txn, read: read)[series].map { $0.sorted() } ?? []
    }

    /// Records that `key` was written (`present`) or removed in `txn`; a key that is not a
    /// bucket's is ignored.
    func note(_ key: String, present: Bool, in txn: borrowing WriteTransaction) {
        guard key.hasPrefix(SchemaKey.heatmapPrefix) else { return }
        let mark = txn.mark
        known.withLock { known in
            guard var current = known,
                current.mark.marks(txn) || current.mark.directlyPrecedes(txn)
            else {
                // Not known for this transaction: the next use reads the keys, this one among them.
                known = nil
                return
            }
            known = nil  // `current` alone holds the keys: changed in place
            for series in Self.series(in: key) {
                if present {
                    current.keys[series, default: []].insert(key)
                } else {
                    current.keys[series]?.remove(key)
                }
            }
            current.mark = mark
            known = current
        }
    }

    private func current(in txn: borrowing WriteTransaction, read: () throws -> [String])
        throws -> [String: Set<String>]
    {
        let mark = txn.mark
        let trusted: [String: Set<String>]? = known.withLock { known in
            guard let current = known,
                current.mark.marks(txn) || current.mark.directlyPrecedes(txn)
            else { return nil }
            known = Known(mark: mark, keys: current.keys)
            return current.keys
        }
        if let trusted { return trusted }
        var keys: [String: Set<String>] = [:]
        for key in try read() {
            for series in Self.series(in: key) { keys[series, default: []].insert(key) }
        }
        known.withLock { $0 = Known(mark: mark, keys: keys) }
        return keys
    }

    /// The series of the bucket under `key`; none when it is not a bucket's key.
    private static func series(in key: String) -> [String] {
        guard let parsed = SchemaKey.parse(key), parsed.figures.kind == HeatmapCache.kind else {
            return []
        }
        return Heatmap.seriesNames(inBucket: parsed.subject)
    }
}
