import Foundation
import LMDB

/// One consistent view of a store, for several queries that must agree with each other.
///
/// You get one inside ``TrendStore/read(_:)``: every query on it reads the same committed
/// state, so a screen's today curve, weekday average and heatmap never mix a write that
/// landed between them.
///
/// ```swift
/// let (today, mondays) = try store.read { snapshot in
///     (try snapshot.todayCurve(of: "activeEnergy"),
///      try snapshot.weekdayAverage(of: "activeEnergy", weekday: .monday))
/// }
/// ```
///
/// It cannot outlive the closure (it is not copyable and is lent, not given); the
/// transaction behind it ends when the closure returns, so keep the closure short and
/// never `await` inside it.
public struct StoreSnapshot: ~Copyable {
    let engine: StoreEngine
    /// The read transaction, lent for as long as the closure that received this snapshot runs.
    let transaction: LentReadTransaction
    /// Records what the queries read, for ``TrendStore/observe(every:_:)``; `nil` elsewhere.
    var region: ReadRegion? = nil

    /// Calls `body` with the samples of `series` that start in `[from, to)` written by
    /// `source` (`nil`: the default source), one stored block (a few thousand samples) at a
    /// time, sorted by start then end: a scan of any length in flat memory, all of it from
    /// this snapshot (an export is a state that existed; it walks each of ``sources(of:)``).
    ///
    /// - Throws: ``StoreError/Code/unknownSeries`` for a series the store does not
    ///   hold; ``StoreError/Code/storage`` with `MDB_CORRUPTED` before
    ///   the first block when a damaged page hides blocks from the walk; what `body` throws.
    public func forEachSampleBatch(
        of series: String, from: Date, to: Date, source: String? = nil,
        _ body: ([Sample]) throws -> Void
    ) throws {
        region?.read(series)
        var record = try engine.storage.requireSeries(named: series, in: transaction)
        if record.hasSources || source != nil {
            record = try engine.stream(
                of: series, source: source ?? SourceName.defaultSource, in: transaction
            ).record
        }
        try engine.storage.checkReach(in: transaction)
        var position = from.millisecondsSince1970
        let end = to.millisecondsSince1970
        while position < end {
            let samples = try engine.nextBlock(
                of: record, from: position, before: end, in: transaction)
            guard let last = samples.last else { return }
            // Samples sharing a start are never split between blocks.
            position = last.startMilliseconds + 1
            try body(samples)
        }
    }
}

extension TrendStore {
    /// Runs `body` with one consistent snapshot of the store, so several queries agree.
    ///
    /// The snapshot is one LMDB read transaction: it sees the writes committed before it
    /// began, by this process or another, and none after. Writers are never blocked by it.
    ///
    /// - Warning: Keep `body` short and synchronous: a long-lived read transaction keeps
    ///   the pages it sees from being reused, so the file grows while it runs.
    public nonisolated func read<R>(_ body: (borrowing StoreSnapshot) throws -> R) throws -> R {
        try engine.read { txn in
            try Transactions.lend(txn) { transaction in
                try body(StoreSnapshot(engine: engine, transaction: transaction))
            }
        }
    }
}
