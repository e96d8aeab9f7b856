import CLMDB

/// Where every write transaction of an environment records the id it commits as.
struct CommitStamp: Sendable {
    let database: Database
    let key: [UInt8]
}

extension Environment {
    /// From now on, every write transaction of this environment in this process that
    /// changes anything puts its own id (``WriteTransaction/id``, UInt64 little-endian) under
    /// `key` in `database` as the last thing before it commits (one that changes nothing
    /// commits nothing, and stays so).
    ///
    /// A snapshot of a commit then holds that commit's id, so a read transaction whose
    /// ``ReadTransaction/snapshotID`` differs from the stamp it reads is not looking at the
    /// commit its meta page names: the meta page was damaged (LMDB 0.9 checksums no page),
    /// or a writer that does not stamp committed since.
    public func stampCommits(in database: Database, key: [UInt8]) {
        commitStamp.withLock { $0 = CommitStamp(database: database, key: key) }
    }

    /// Puts `transaction`'s id where ``stampCommits(in:key:)`` said, if it said.
    func stamp(_ transaction: borrowing WriteTransaction) throws {
        guard transaction.state.changes, let stamp = commitStamp.withLock({ $0 }) else { return }
        let id = UInt64(transaction.id)
        try transaction.put(
            withUnsafeBytes(of: id.littleEndian, Array.init), forKey: stamp.key, in: stamp.database)
    }
}

extension WriteTransaction {
    /// The id this transaction commits as: the ``ReadTransaction/snapshotID`` of every read
    /// transaction that sees its changes, until the next commit.
    ///
    /// The corresponding LMDB function is `mdb_txn_id`.
    public var id: Int { Int(mdb_txn_id(pointer)) }
}
