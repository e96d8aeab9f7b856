import Synchronization

/// The decoded entries a ``TypedCache`` read lately, kept in memory in front of LMDB: an
/// entry answers only while no commit of any process has come since it was read (LMDB's
/// last transaction id is unchanged), so a hot read costs neither an LMDB lookup nor a JSON
/// decode and is never staler than the store. At most ``capacity`` entries; reads answered
/// here are recorded for the least-recently-used eviction the next insert runs.
final class TypedCacheMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A decoded value with its expiry (milliseconds since 1970).
    struct Entry: Sendable {
        let value: Value
        let expiresAt: Int64
    }

    private struct State: Sendable {
        var transactionID = -1
        var entries: [Key: Entry] = [:]
        var hits: [Key: Int64] = [:]
    }

    private let state = Mutex(State())
    /// The most entries kept; when full, all are dropped.
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The entry of `key` read at `transactionID`, the store's last transaction now; `nil`
    /// when there is none or a commit has come since.
    func entry(for key: Key, at transactionID: Int) -> Entry? {
        state.withLock { $0.transactionID == transactionID ? $0.entries[key] : nil }
    }

    /// Keeps `entry` of `key`, read in a snapshot no older than `transactionID`.
    func keep(_ entry: Entry, for key: Key, readAt transactionID: Int) {
        state.withLock { state in
            if state.transactionID != transactionID || state.entries.count >= capacity {
                state.entries.removeAll(keepingCapacity: true)
                state.transactionID = transactionID
            }
            state.entries[key] = entry
        }
    }

    /// Records that `key` was read from memory at `now`.
    func recordHit(_ key: Key, at now: Int64) {
        state.withLock { $0.hits[key] = now }
    }

    /// The reads answered from memory since the last call, by key.
    func takeHits() -> [Key: Int64] {
        state.withLock { state in
            defer { state.hits.removeAll() }
            return state.hits
        }
    }
}
