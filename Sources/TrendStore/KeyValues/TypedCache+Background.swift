/// The `async` forms of the typed cache's writes: each is a durable commit that may wait on
/// the disk and on another process's writer lock, so from `async` code it waits without
/// blocking the caller's thread.
extension TypedCache {
    /// Stores `value` under `key` on a thread of its own, as the synchronous
    /// ``insert(_:forKey:)`` does.
    public func insert(_ value: Value, forKey key: Key) async throws {
        try await offCallerThread { try self.insert(value, forKey: key) }
    }

    /// Removes the entry under `key` on a thread of its own.
    public func removeValue(forKey key: Key) async throws {
        try await offCallerThread { try self.removeValue(forKey: key) }
    }

    /// Removes every entry of the namespace on a thread of its own.
    public func removeAll() async throws {
        try await offCallerThread { try self.removeAll() }
    }
}
