import Foundation

/// Runs `work` on a thread of its own and waits for it without blocking the caller: how
/// the `async` forms keep LMDB's waits (a disk sync, another process's writer lock, a
/// whole-store read) off the caller's thread, and off Swift's cooperative pool, whose few
/// threads must never block.
func offCallerThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value)
    async throws -> Value
{
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = "TrendStore"
        thread.start()
    }
}
