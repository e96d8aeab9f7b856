import LMDB

extension SampleStorage {
    /// Checks that a walk over the series registry and the sample blocks reaches as many
    /// entries as LMDB records for them: a damaged B-tree page (LMDB does not checksum its
    /// pages) can hide a run of blocks from a walk, and a read that misses them would answer
    /// short without a word. Costs one walk over the keys (a few hundred steps per million
    /// samples), so whole-series reads such as exports make it, not every query.
    ///
    /// - Throws: ``LMDBError`` with ``LMDBError/Code/corrupted`` naming the database.
    func checkReach<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws {
        for database in [series, blocks] {
            var reached = 0
            try txn.withCursor(database) { cursor in
                try cursor.forEach { _, _ in
                    reached += 1
                    return true
                }
            }
            let recorded = try txn.statistics(of: database).entries
            if reached != recorded {
                throw LMDBError(
                    code: .corrupted,
                    operation:
                        "walk database \(database): it holds \(recorded) entries but a walk reaches \(reached) (a damaged page)"
                )
            }
        }
    }
}
