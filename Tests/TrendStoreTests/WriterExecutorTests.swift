import Foundation
import Testing
@testable import TrendStore

/// An actor on a ``WriterExecutor`` whose thread ends after `idleTime`.
private actor Counter {
    let executor: WriterExecutor
    var count = 0
    init(idleTime: TimeInterval) { executor = WriterExecutor(idleTime: idleTime) }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func increment() { count += 1 }
}

@Suite("The writer executor")
struct WriterExecutorTests {
    @Test("no job is lost when the thread ends and starts again between jobs")
    func noJobLost() async throws {
        for idle in [0.0, 0.000_05, 0.001] {
            let counter = Counter(idleTime: idle)
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
