import Dispatch
import Foundation
import Synchronization

/// Pure work of one transaction spread over the cores: the blocks of a bulk write
/// (``BlockEncoder``) and the rollup rows of its days, the blocks a scan of all time decodes
/// next (``DecodedBlockCache/prefetch(_:of:storage:)``). Only the work runs elsewhere; the
/// transaction is used by its own thread alone, which stores what the work gives, in order.
package enum ConcurrentWork {
    /// The most threads one transaction's work uses: the cores, at most four.
    static let width = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)

    /// `body(0) … body(count - 1)` in order, each index on one of `count` threads (the
    /// caller's among them); the first error thrown, by index, is rethrown.
    package static func map<Result: Sendable>(
        _ count: Int, _ body: @Sendable (Int) throws -> Result
    ) throws -> [Result] {
        guard count > 1 else { return try (0..<count).map(body) }
        let results = Mutex([Swift.Result<Result, any Error>?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Swift.Result { try body(index) }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { results in
            try results.map { result in
                guard let result else { throw ConcurrentWorkSkipped() }
                return try result.get()
            }
        }
    }

    /// `items.map(transform)`, the items cut into up to ``width`` contiguous shares of at
    /// least `minimumShare`, each share mapped on one thread, with a state of its own that
    /// `makeState` gives (a zlib stream: one per thread); in order.
    static func map<Item: Sendable, State, Result: Sendable>(
        _ items: [Item], minimumShare: Int = 1, state makeState: @Sendable () -> State,
        _ transform: @Sendable (Item, inout State) -> Result
    ) throws -> [Result] {
        let share = max(minimumShare, 1, (items.count + width - 1) / width)
        let shares = stride(from: 0, to: items.count, by: share).map {
            items[$0..<min($0 + share, items.count)]
        }
        return try map(shares.count) { index in
            var state = makeState()
            return shares[index].map { transform($0, &state) }
        }.flatMap { $0 }
    }

    /// `items.map(transform)` in contiguous shares, as
    /// ``map(_:minimumShare:state:_:)`` without a state.
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], minimumShare: Int = 1, _ transform: @Sendable (Item) -> Result
    ) throws -> [Result] {
        try map(items, minimumShare: minimumShare, state: {}) { item, _ in transform(item) }
    }
}

/// Thrown if a concurrent index never ran (Dispatch runs every one: never expected).
struct ConcurrentWorkSkipped: Error {}
