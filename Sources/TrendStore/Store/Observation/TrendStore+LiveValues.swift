import Foundation

extension TrendStore {
    /// A live value: the value of `query` now, then again after every change that can move
    /// it, for a screen or a widget to show.
    ///
    /// The first element is `query`'s value at once. The store then tracks what `query`
    /// read (the series it named, whether it listed every series, whether a `now` was left
    /// to the store's clock) and evaluates it again only when a committed write changed one
    /// of those series, or the clock entered another local hour of the handle's zone (today's
    /// curve at midnight); an element comes only when the value differs from the last one.
    /// A write through any handle of this process on the store wakes the observer at once;
    /// one of another process (an app and its widget) is seen at the next poll, every
    /// `interval` (100 ms by default).
    ///
    /// The sequence ends when the task iterating it is cancelled, and throws
    /// ``StoreError/Code/closed`` when the store is closed: observe the reopened store
    /// with the same call. A suspension (``suspend()``) does not end it: it waits, and
    /// yields after ``resume()`` if the value changed meanwhile.
    ///
    /// ```swift
    /// for try await curve in store.observe({ try $0.todayCurve(of: "activeEnergy") }) {
    ///     chart.show(curve)
    /// }
    /// ```
    public nonisolated func observe<Value: Sendable & Equatable>(
        every interval: Duration = .milliseconds(100),
        _ query: @escaping @Sendable (borrowing StoreSnapshot) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let engine = self.engine
        return AsyncThrowingStream { continuation in
            let (id, signals, wake) = engine.commits.subscribe()
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    wake.yield()
                }
            }
            let task = Task {
                defer {
                    ticker.cancel()
                    engine.commits.unsubscribe(id)
                }
                do {
                    // `nil` until the first evaluation the store's suspension does not refuse.
                    var observation = try StoreEngine.unlessSuspended {
                        try Observation.evaluate(query, on: engine)
                    }
                    if let observation { continuation.yield(observation.value) }
                    for await _ in signals {
                        try engine.checkOpen()
                        let next = try StoreEngine.unlessSuspended { () -> Observation<Value>? in
                            if var current = observation, !(try current.isStale(on: engine)) {
                                observation = current
                                return nil
                            }
                            return try Observation.evaluate(query, on: engine)
                        }
                        guard let next = next ?? nil else { continue }
                        if next.value != observation?.value { continuation.yield(next.value) }
                        observation = next
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                task.cancel()
                ticker.cancel()
            }
        }
    }
}

/// One evaluation of an observed query: its value, what it read, and the state of the
/// store and clock it read them in.
private struct Observation<Value: Sendable> {
    let value: Value
    let region: ReadRegion
    /// The last transaction whose changes were compared with the ones read.
    var transactionID: Int
    let changeCounts: [String: UInt64]
    let hour: Int64?

    /// Evaluates `query` in one snapshot of `engine`, recording what it reads.
    static func evaluate(
        _ query: (borrowing StoreSnapshot) throws -> Value, on engine: StoreEngine
    ) throws -> Observation {
        // The value, the id and the change counts from one snapshot: a commit after it gives
        // a later snapshot another id, so it is never missed.
        let region = ReadRegion()
        let (value, transactionID, changeCounts) = try engine.read { txn in
            let value = try Transactions.lend(txn) { transaction in
                try query(StoreSnapshot(engine: engine, transaction: transaction, region: region))
            }
            return (
                value, Transactions.snapshotID(of: txn),
                try engine.changeCounts(of: region.series, in: txn)
            )
        }
        return Observation(
            value: value, region: region, transactionID: transactionID,
            changeCounts: changeCounts,
            hour: region.readsClock ? localHour(on: engine) : nil)
    }

    /// Whether a commit since changed what the query read, or the clock entered another
    /// local hour. Commits that changed none of it are remembered, so a poll after them
    /// reads no change counts again.
    mutating func isStale(on engine: StoreEngine) throws -> Bool {
        if region.readsClock && Self.localHour(on: engine) != hour { return true }
        let (latest, counts) = try engine.read { txn in
            let latest = Transactions.snapshotID(of: txn)
            guard latest != transactionID, !region.readsEverySeries else {
                return (latest, [String: UInt64]?.none)
            }
            return (latest, try engine.changeCounts(of: region.series, in: txn))
        }
        guard latest != transactionID else { return false }
        guard let counts, counts == changeCounts else { return true }
        transactionID = latest
        return false
    }

    /// The local hour the store's clock reads in the handle's zone, as a number.
    private static func localHour(on engine: StoreEngine) -> Int64 {
        let now = engine.clock()
        let local = now.timeIntervalSince1970 + Double(engine.timeZone.secondsFromGMT(for: now))
        return Int64((local / 3_600).rounded(.down))
    }
}
