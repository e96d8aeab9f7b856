import Synchronization

/// Tells the observers of a store, in this process, that a write committed: at once, not at
/// their next poll. Each subscriber gets a stream that keeps only the newest signal.
final class CommitSignal: Sendable {
    private struct State {
        var next = 0
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
    }
    private let state = Mutex(State())

    /// A new subscription: its id, its stream of signals, and the stream's continuation (for
    /// the subscriber's own timer to wake it too).
    func subscribe() -> (
        id: Int, signals: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation
    ) {
        let (signals, continuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.next += 1
            state.subscribers[state.next] = continuation
            return state.next
        }
        return (id, signals, continuation)
    }

    /// Ends the subscription `id`.
    func unsubscribe(_ id: Int) {
        state.withLock { $0.subscribers.removeValue(forKey: id) }?.finish()
    }

    /// Wakes every subscriber: a write committed.
    func notify() {
        for continuation in state.withLock({ Array($0.subscribers.values) }) {
            continuation.yield()
        }
    }
}
