import Foundation
import LMDB
import TrendStore

/// The peer's `lmdb` mode: opens the store's LMDB environment alone (no TrendStore) and, for
/// each `hold MS` line, takes LMDB's writer lock, answers "ok" while holding it, and commits
/// nothing after `MS` milliseconds; ends at `quit`.
func holdWriterLock(directory: String) -> Never {
    do {
        let environment = try Environment(path: directory)
        answer("ready")
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "hold", let milliseconds = UInt32(words[1]) else {
                break
            }
            try environment.write(sync: .none) { _ in
                answer("ok")
                usleep(milliseconds * 1_000)
            }
        }
        exit(0)
    } catch {
        answer("error \(error)")
        exit(1)
    }
}

/// Has each of `stores` write one sample at once, while a ticker task on the cooperative
/// pool sleeps 10 ms at a time: the writes' wall time and the ticker's worst lateness past
/// its 10 ms, both in whole milliseconds.
func tickedWrites(through stores: [TrendStore]) async throws -> (wall: Int, late: Int) {
    let ticking = Ticking()
    let ticker = Task.detached {
        while !ticking.isDone {
            let start = ContinuousClock.now
            try? await Task.sleep(for: .milliseconds(10))
            ticking.record(ContinuousClock.now - start - .milliseconds(10))
        }
    }
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, store) in stores.enumerated() {
            group.addTask {
                let at = Int64(index) * 60_000
                try await store.write(
                    [Sample(startMilliseconds: at, endMilliseconds: at + 60_000, value: 1)],
                    to: "ticked", unit: "kcal")
            }
        }
        try await group.waitForAll()
    }
    let wall = ContinuousClock.now - start
    // A few more ticks after the writes, so a ticker held up to their end is measured.
    try await Task.sleep(for: .milliseconds(50))
    ticking.finish()
    await ticker.value
    return (milliseconds(wall), milliseconds(ticking.worst))
}

private func milliseconds(_ duration: Duration) -> Int {
    Int(
        duration.components.seconds * 1_000 + duration.components.attoseconds
            / 1_000_000_000_000_000)
}

/// The ticker's worst lateness, shared with the task that reads it.
private final class Ticking: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    private var done = false
    private var worstLateness = Duration.zero

    var isDone: Bool { lock.withLock { done } }
    var worst: Duration { lock.withLock { worstLateness } }

    func record(_ lateness: Duration) {
        lock.withLock { worstLateness = max(worstLateness, lateness) }
    }

    func finish() { lock.withLock { done = true } }
}
