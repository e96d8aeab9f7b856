import LMDB

/// Walks the rollup rows (`days`) of a migration that goes through them in batches, each
/// its own transaction: a batch visits at most `batchRows` rows in key order from where the
/// previous one stopped, a key kept in `meta` under the migration's own name.
struct DayRowBatches {
    /// The `meta` key of where the next batch starts.
    let resumeKey: [UInt8]
    /// Rows visited per transaction.
    let batchRows: Int

    /// Calls `body(key, row)` for the next batch's rows, then records where the following
    /// batch starts (or, when the rows are done, forgets it).
    ///
    /// - Returns: `.moreToDo` while rows remain after this batch.
    func visitNext(
        days: Database, meta: Database, in txn: borrowing WriteTransaction,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) throws -> MigrationProgress {
        let resume = try txn.value(forKey: resumeKey, in: meta)
        var next: [UInt8]?
        var count = 0
        try txn.withCursor(days) { cursor in
            try cursor.forEach(from: resume ?? []) { key, row in
                guard count < batchRows else {
                    next = Array(key)
                    return false
                }
                count += 1
                try body(key, row)
                return true
            }
        }
        if let next {
            try txn.put(next, forKey: resumeKey, in: meta)
            return .moreToDo
        }
        try txn.delete(forKey: resumeKey, in: meta)
        return .finished
    }
}
