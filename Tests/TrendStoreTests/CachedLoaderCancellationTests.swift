import Foundation
import Synchronization
import Testing
import TestSupport
import TrendStore

/// A fetch that waits until cancelled (or an hour, which no run of the suite reaches, however
/// loaded the machine), counting starts and cancellations.
private final class SlowFetch: Sendable {
    private let state = Mutex((started: 0, cancelled: 0))
    var started: Int { state.withLock { $0.started } }
    var cancelled: Int { state.withLock { $0.cancelled } }

    func fetch(_ key: String) async throws -> Int {
        state.withLock { $0.started += 1 }
        do {
            try await Task.sleep(for: .seconds(3_600))
        } catch {
            state.withLock { $0.cancelled += 1 }
            throw error
        }
        return key.count
    }
}

@Suite("Cache-then-network loader and cancellation")
struct CachedLoaderCancellationTests {
    @Test(
        "a cancelled load stops waiting for the fetch; the fetch is cancelled when no load waits for it"
    )
    func cancellation() async throws {
        try await withTemporaryStore { store, _ in
            let slow = SlowFetch()
            let loader = CachedLoader(
                cache: try TypedCache<String, Int>(store: store, namespace: "n")
            ) {
                try await slow.fetch($0)
            }
            let first = Task { try await loader.load("key") }
            let second = Task { try await loader.load("key") }
            while slow.started == 0 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(50))
            // The first load's wait ends with the cancellation, long before the fetch's hour.
            first.cancel()
            await #expect(throws: CancellationError.self) { try await first.value }
            // The second load still waits for the one shared fetch, which goes on.
            #expect(slow.cancelled == 0)
            second.cancel()
            await #expect(throws: CancellationError.self) { try await second.value }
            while slow.cancelled == 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(slow.started == 1 && slow.cancelled == 1)
            // A task cancelled before it loads fetches nothing.
            let early = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await loader.load("other")
            }
            await #expect(throws: CancellationError.self) { try await early.value }
            #expect(slow.started == 1)
            #expect(try loader.cache.value(forKey: "key") == nil)
        }
    }
}
