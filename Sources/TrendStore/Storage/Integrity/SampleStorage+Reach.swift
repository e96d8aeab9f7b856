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
        for reach in [try series.reach(in: txn), try blocks.reach(in: txn)] where !reach.isComplete
        {
            throw LMDBError(
                code: .corrupted,
                operation:
                    "walk database \(reach.name): it holds \(reach.recorded) entries but a walk reaches \(reach.reached) (a damaged page)"
            )
        }
    }
}
