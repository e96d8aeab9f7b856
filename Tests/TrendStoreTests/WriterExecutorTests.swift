import Foundation
import Testing
@testable import TrendStore

/// An actor on a ``WriterExecutor``.
private actor Counter {
    let executor = WriterExecutor()
    var count = 0
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func increment() { count += 1 }
}

@Suite("The writer executor")
struct WriterExecutorTests {
    @Test("jobs of many tasks run one at a time, none lost, with pauses between them")
    func noJobLost() async throws {
        for _ in 0..<3 {
            let counter = Counter()
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for step in 0..<2_000 {
                            await counter.increment()
                            if (step + task) % 97 == 0 {
                                try? await Task.sleep(for: .microseconds(200))
                            }
                        }
                    }
                }
            }
            #expect(await counter.count == 16_000)
        }
    }
}
