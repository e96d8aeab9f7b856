import Foundation
import Observation
import Testing
import TestSupport
import TrendStore

/// The `@Observable` model a SwiftUI view binds to.
@Suite("LiveQuery")
@MainActor
struct LiveQueryTests {
    /// Waits, on the main actor, until `condition` holds (at most 30 s: under the whole
    /// suite's load on two cores the first value once took longer than 10 s; a value that
    /// never comes still fails).
    func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("value follows writes on the main actor and tells Observation; closing sets the error")
    func followsWrites() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let start: Int64 = 1_772_640_000_000
        try await store.write(
            [Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: 1)],
            to: "e", unit: "kcal")
        let live = LiveQuery(store) {
            try $0.samples(of: "e", from: .distantPast, to: .distantFuture).count
        }
        try await eventually { live.value == 1 }
        #expect(live.value == 1)
        // Observation tells a view that reads `value` when it changes.
        let (changes, changed) = AsyncStream.makeStream(of: Void.self)
        withObservationTracking {
            _ = live.value
        } onChange: {
            changed.yield()
        }
        try await store.write(
            [Sample(startMilliseconds: start + 60_000, endMilliseconds: start + 120_000, value: 1)],
            to: "e", unit: "kcal")
        var iterator = changes.makeAsyncIterator()
        await iterator.next()
        try await eventually { live.value == 2 }
        #expect(live.value == 2)
        #expect(live.error == nil)
        await store.close()
        try await eventually { live.error != nil }
        #expect((live.error as? StoreError)?.code == "closed")
        #expect(live.value == nil)
    }

    @Test("a released LiveQuery stops observing")
    func stopsWhenReleased() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        weak var released: LiveQuery<Int>?
        do {
            let live = LiveQuery(store) { try $0.series().count }
            released = live
            try await eventually { live.value == 0 }
            #expect(live.value == 0)
        }
        try await eventually { released == nil }
        #expect(released == nil)
        // Writes go on without an observer left to feed.
        try await store.declareSeries("e", unit: "kcal")
        #expect(try store.series().count == 1)
    }
}
