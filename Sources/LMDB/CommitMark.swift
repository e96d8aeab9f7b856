/// A write transaction as a later write transaction can recognise it: to keep, in memory,
/// something derived from the data that stays true while no one else commits.
///
/// A mark says whether a later transaction is the same one, or the very next write
/// transaction of the environment after it committed a change; in both cases that
/// transaction sees exactly the data the marked one left. LMDB numbers each commit that
/// writes one more than the last, across processes, and a write transaction begins with the
/// number its commit will take, so the next one after a commit of id `n` has id `n + 1`
/// only if no one committed between. A transaction that asked for no change, or aborted,
/// precedes nothing.
///
/// Exact when every transaction that asks for a change writes a commit, as with
/// ``Environment/stampCommits(in:key:)``: without it, one whose only change was a deletion
/// of a key not there writes none, and another process's commit may then take its number.
public struct CommitMark: @unchecked Sendable {
    // @unchecked: the state is written by its transaction's thread before `write` returns,
    // and read by a later write transaction, which the environment's writer lock orders
    // after it.
    private let state: WriteTransaction.State
    private let id: Int

    init(state: WriteTransaction.State, id: Int) {
        self.state = state
        self.id = id
    }

    /// Whether `transaction` is the transaction this mark is of.
    public func marks(_ transaction: borrowing WriteTransaction) -> Bool {
        transaction.state === state
    }

    /// Whether the marked transaction committed a change and `transaction` is the next
    /// write transaction of the environment, so it sees what the marked one left.
    public func directlyPrecedes(_ transaction: borrowing WriteTransaction) -> Bool {
        state.committed && state.changes && transaction.id == id + 1
    }
}

extension WriteTransaction {
    /// The mark of this transaction (``CommitMark``).
    public var mark: CommitMark { CommitMark(state: state, id: id) }
}
