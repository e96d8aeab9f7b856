import CLMDB

extension Environment {
    /// How a write transaction's commit reaches the disk: LMDB's `MDB_NOMETASYNC` and
    /// `MDB_NOSYNC`, set on the environment inside each write transaction (LMDB 0.9 reads
    /// them from the environment at commit, and its writer lock orders them with every
    /// other commit), so each transaction chooses whatever other users choose.
    public enum Sync: Sendable {
        /// Two flushes per commit, the data pages then the meta page.
        case full
        /// One flush per commit (`MDB_NOMETASYNC`): the meta page is flushed with the next
        /// commit's, so a system crash may undo this commit.
        case dataOnly
        /// No flush (`MDB_NOSYNC`): the system writes the pages back when it chooses.
        case none

        var environmentFlags: UInt32 {
            switch self {
            case .full: 0
            case .dataOnly: UInt32(MDB_NOMETASYNC)
            case .none: UInt32(MDB_NOSYNC)
            }
        }
    }

    /// How the last write transaction of this environment in this process committed, from
    /// LMDB's flags.
    public func lastCommitSync() throws -> Sync {
        try resizeLock.withShared {
            try checkOpen("read flags")
            var flags: UInt32 = 0
            try check(mdb_env_get_flags(pointer, &flags), "read flags of \(path)")
            if flags & UInt32(MDB_NOSYNC) != 0 { return .none }
            return flags & UInt32(MDB_NOMETASYNC) != 0 ? .dataOnly : .full
        }
    }

    /// Sets the environment's sync flags to `sync`'s, inside a write transaction.
    func commitSyncing(_ sync: Sync) throws {
        let mask = UInt32(MDB_NOSYNC | MDB_NOMETASYNC)
        var flags: UInt32 = 0
        try check(mdb_env_get_flags(pointer, &flags), "read flags of \(path)")
        guard flags & mask != sync.environmentFlags else { return }
        try check(mdb_env_set_flags(pointer, mask, 0), "clear sync flags of \(path)")
        if sync.environmentFlags != 0 {
            try check(
                mdb_env_set_flags(pointer, sync.environmentFlags, 1), "set sync flags of \(path)")
        }
    }
}
