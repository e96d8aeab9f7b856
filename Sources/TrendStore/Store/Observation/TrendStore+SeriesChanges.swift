import Foundation
import LMDB

/// A committed write that changed some of the observed series.
public struct StoreChange: Sendable, Equatable {
    /// The observed series whose samples changed (NFC names, in the order asked for).
    public var series: [String]
    /// The id of the commit the change was seen at: the snapshot the change counts were read in.
    public var transactionID: Int
}

extension TrendStore {
    /// The writes that change `series`, as they commit, from this process or any other
    /// process using the store (an app and its widget).
    ///
    /// The store is polled every `interval` (default 100 ms): first the id of the commit a
    /// new read transaction shows, which every commit moves, and only when that moved, the
    /// observed series' change counts, read in one snapshot with its id, so no commit is
    /// missed. A change is seen within
    /// `interval` plus one read, well under 250 ms by default; several writes within one
    /// interval come as one element. The sequence ends when the task iterating it is
    /// cancelled or the store is closed; a suspension (``suspend()``) does not end it: the
    /// writes of another process meanwhile come as one element after ``resume()``.
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
                    // The counts before the first poll; while the store is suspended there
                    // is nothing to compare with, and every series counts as changed once
                    // it resumes.
                    var (seen, counts) =
                        try StoreEngine.unlessSuspended { try engine.changeCounts(of: names) }
                        ?? (-1, [:])
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        try engine.checkOpen()
                        guard
                            let (latest, now) = try StoreEngine.unlessSuspended({
                                () -> (Int, [String: UInt64])? in
                                guard try engine.snapshotID() != seen else { return nil }
                                return try engine.changeCounts(of: names)
                            }) ?? nil
                        else { continue }
                        seen = latest
                        let changed = names.filter { now[$0] != counts[$0] }
                        counts = now
                        if !changed.isEmpty {
                            continuation.yield(StoreChange(series: changed, transactionID: latest))
                        }
                    }
                    continuation.finish()
                } catch StoreError.Code.closed, is CancellationError {
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
    /// `body`'s result, or `nil` when the store is suspended (``TrendStore/suspend()``):
    /// observers wait quietly for the resume, which wakes them.
    static func unlessSuspended<R>(_ body: () throws -> R) throws -> R? {
        do {
            return try body()
        } catch StoreError.Code.suspended {
            return nil
        }
    }

    /// The id of the commit a read transaction begun now shows, which every commit of any
    /// process moves once readers can see it.
    func snapshotID() throws -> Int {
        try read { txn in Transactions.snapshotID(of: txn) }
    }

    /// The change count of each of `names` (0 for a series that does not exist), with the
    /// id of the snapshot they were read in.
    func changeCounts(of names: [String]) throws -> (snapshotID: Int, counts: [String: UInt64]) {
        try read { txn in (Transactions.snapshotID(of: txn), try changeCounts(of: names, in: txn)) }
    }

    /// The change count of each of `names` in `txn` (0 for a series that does not exist).
    func changeCounts(of names: [String], in txn: borrowing ReadTransaction) throws -> [String:
        UInt64]
    {
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
