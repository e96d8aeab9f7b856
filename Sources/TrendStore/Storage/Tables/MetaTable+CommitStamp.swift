import LMDB

/// The commit stamp (FORMAT.md, format 3): every write transaction records the id it
/// commits as under `commit-stamp`, so opening a store can tell that LMDB opened the commit
/// its newest meta page names, not an older one a damaged meta page points at.
extension MetaTable {
    /// The first format whose stores are stamped by every writer: older releases refuse to
    /// write them, so their stamp always names their last commit.
    static let stampedFormat: UInt32 = 3

    /// Makes every write transaction of `environment` in this process stamp its commit.
    func stampCommits(of environment: Environment) {
        environment.stampCommits(in: plain.database, key: Self.commitStampKey)
    }

    /// The id of the commit that wrote the stamp `txn` sees, or `nil` when there is none.
    func commitStamp<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> UInt64? {
        guard let bytes = try plain.value(forKey: Self.commitStampKey, in: txn), bytes.count == 8
        else { return nil }
        return bytes.withUnsafeBytes { $0.littleEndian(at: 0, as: UInt64.self) }
    }

    /// Refuses a store of a stamped format whose snapshot in `txn` holds another commit's
    /// stamp than the commit LMDB names: a damaged meta page made LMDB open an earlier
    /// commit, and a write would make losing the later ones permanent.
    ///
    /// A store without a stamp (made before its first stamped commit) and a compacted copy
    /// (whose commits LMDB numbers anew from 1) are not checked.
    ///
    /// - Throws: ``StoreError/Code/storage`` with `MDB_CORRUPTED`.
    func checkCommitStamp(format: UInt32?, in txn: borrowing ReadTransaction, path: String)
        throws
    {
        guard let format, format >= Self.stampedFormat else { return }
        let snapshot = Transactions.snapshotID(of: txn)
        guard snapshot > 1, let stamp = try commitStamp(in: txn), stamp != UInt64(snapshot)
        else { return }
        throw StoreError.storage(
            path: path, operation: "open", code: LMDBError.Code.corrupted.rawValue,
            reason:
                "LMDB opens commit \(snapshot), but the data it shows was written by commit \(stamp): a damaged meta page points at an earlier commit, and writing would lose the later ones for good; restore a backup"
        )
    }
}
