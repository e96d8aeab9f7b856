import LMDB

/// Begins the LMDB transactions every table call runs in: with the tables, the one place
/// of `TrendStore` that calls LMDB's transaction API.
enum Transactions {
    /// Runs `body` in a read transaction of `environment`: one consistent snapshot.
    static func read<R>(
        in environment: Environment, _ body: (borrowing ReadTransaction) throws -> R
    ) throws -> R {
        try environment.read(body)
    }

    /// Runs `body` in a write transaction of `environment`, committed when it returns
    /// (reaching the disk as `sync` says) and aborted when it throws.
    static func write<R>(
        in environment: Environment, sync: Environment.Sync = .full,
        _ body: (borrowing WriteTransaction) throws -> R
    ) throws -> R {
        try environment.write(sync: sync, body)
    }

    /// The id of the commit `txn` shows: equal ids see equal data, and any later commit
    /// gives a later transaction a greater one.
    static func snapshotID(of txn: borrowing ReadTransaction) -> Int {
        txn.snapshotID
    }

    /// Lends `txn` to `body` as a transaction a snapshot value can hold for its duration.
    static func lend<R>(
        _ txn: borrowing ReadTransaction, _ body: (consuming LentReadTransaction) throws -> R
    ) rethrows -> R {
        try txn.lend(body)
    }
}
