import Foundation

/// A committed write that changed some of the observed series.
public struct StoreChange: Sendable, Equatable {
    /// The observed series whose samples changed (NFC names, in the order asked for).
    public var series: [String]
    /// The LMDB transaction id the change was seen at.
    public var transactionID: Int
}

extension TrendStore {
    /// The writes that change `series`, as they commit, from this process or any other
    /// process using the store (an app and its widget).
    ///
    /// The store is polled every `interval` (default 100 ms): first LMDB's last transaction
    /// id, one read of the memory-mapped meta page that changes with every commit, and only
    /// when that moved, the observed series' change counts. A change is seen within
    /// `interval` plus one read, well under 250 ms by default; several writes within one
    /// interval come as one element. The sequence ends when the task iterating it is
    /// cancelled or the store is closed.
    ///
    /// ```swift
    /// for try await change in store.changes(of: ["activeEnergy"]) {
    ///     reloadTimeline(for: change.series)
    /// }
    /// ```
    public nonisolated func changes(
        of series: [String], every interval: Duration = .milliseconds(100)
    ) -> AsyncThrowingStream<StoreChange, any Error> {
        let engine = self.engine
        let names = series.map(SeriesName.normalized)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var seen = try engine.lastTransactionID()
                    var counts = try engine.changeCounts(of: names)
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        let latest = try engine.lastTransactionID()
                        guard latest != seen else { continue }
                        seen = latest
                        let now = try engine.changeCounts(of: names)
                        let changed = names.filter { now[$0] != counts[$0] }
                        counts = now
                        if !changed.isEmpty {
                            continuation.yield(StoreChange(series: changed, transactionID: latest))
                        }
                    }
                    continuation.finish()
                } catch StoreError.closed, is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension StoreEngine {
    /// LMDB's last committed transaction id, which every commit of any process moves.
    func lastTransactionID() throws -> Int {
        try checkOpen()
        do {
            return try environment.lastTransactionID()
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
    }

    /// The change count of each of `names` (0 for a series that does not exist).
    func changeCounts(of names: [String]) throws -> [String: UInt64] {
        try read { txn in
            var counts: [String: UInt64] = [:]
            for name in names {
                counts[name] =
                    try storage.seriesRecord(named: name, in: txn).map {
                        try storage.changeCount(of: $0, in: txn)
                    } ?? 0
            }
            return counts
        }
    }
}
