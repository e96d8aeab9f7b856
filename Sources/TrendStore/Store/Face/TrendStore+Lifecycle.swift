import Foundation

extension TrendStore {
    /// Closes this handle: writes already waiting on the actor finish first, queries running
    /// on other threads finish, and every later call throws ``StoreError/Code/closed``.
    ///
    /// Stores opened on the same directory in one process share one LMDB environment (LMDB
    /// forbids opening a file twice in a process); it closes with the last of them. Closing
    /// twice does nothing.
    ///
    /// To give up the store's file locks while the app is suspended without ending its
    /// observers, use ``suspend()`` and ``resume()`` instead: after `close()`, every
    /// observation ends with ``StoreError/Code/closed``.
    public func close() {
        engine.close()
    }

    /// Whether ``close()`` was called on this handle.
    public nonisolated var isClosed: Bool { (try? engine.checkOpen()) == nil }

    /// Writes a compacted, consistent copy of the store into `directory` (created if missing,
    /// and it must hold no store), while other threads and processes go on reading and writing.
    ///
    /// The copy leaves out free pages, so it is often smaller than the store; it opens and
    /// verifies like the original.
    ///
    /// The corresponding LMDB function is `mdb_env_copy2` with `MDB_CP_COMPACT`.
    public nonisolated func backup(to directory: URL) throws {
        try engine.backup(to: directory)
    }

    /// Removes the samples of `series` that start before `date`; rollups are recomputed and
    /// cached figures that depended on them invalidated in the same transaction, so every
    /// figure stays exact for what remains.
    ///
    /// - Returns: How many samples were removed.
    /// - Warning: The samples are gone once this returns.
    @discardableResult
    public func deleteSamples(of series: String, before date: Date) throws -> Int {
        try engine.delete(series: series, from: .min, to: date.millisecondsSince1970)
    }
}
