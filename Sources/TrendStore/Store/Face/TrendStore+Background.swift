import Foundation

/// The `async` forms of the calls that read the whole store: called from `async` code, they
/// wait without blocking the caller's thread (the main thread of an app).
extension TrendStore {
    /// Writes a compacted, consistent copy of the store into `directory`, on a thread of
    /// its own; the same copy as the synchronous ``backup(to:)-lais``.
    public nonisolated func backup(to directory: URL) async throws {
        try await offCallerThread { try self.backup(to: directory) }
    }

    /// Checks every block, rollup row and hour summary of the store, on a thread of its
    /// own; the same checks as the synchronous ``verify()-1rh8s``.
    public nonisolated func verify() async throws -> VerificationReport {
        try await offCallerThread { try self.verify() }
    }

    #if Encryption
        /// Writes a copy of the store sealed by `key` (in the clear when `nil`) into
        /// `directory`, on a thread of its own; the same copy as the synchronous
        /// ``backup(to:encryptingWith:)-5rl8l``.
        @discardableResult
        public nonisolated func backup(to directory: URL, encryptingWith key: EncryptionKey?)
            async throws -> VerificationReport
        {
            try await offCallerThread { try self.backup(to: directory, encryptingWith: key) }
        }
    #endif
}
