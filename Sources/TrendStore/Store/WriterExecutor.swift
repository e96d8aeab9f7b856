import Foundation
import Synchronization

/// The serial executor a ``TrendStore`` actor runs on: a thread of its own, outside Swift's
/// cooperative pool, so a write waiting for LMDB's writer lock (held by another process) or
/// for the disk blocks that thread alone and never one of the pool's few threads.
///
/// The thread starts with the first job and ends after `idleTime` without one, so a handle
/// that is not written to holds no thread, and a store released ends its thread soon after.
final class WriterExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`.
    private let condition = NSCondition()
    /// The jobs waiting, first to run at `next`.
    private var jobs: [UnownedJob] = []
    private var next = 0
    /// Whether the thread is running (and will see a new job without being started).
    private var hasThread = false
    private let idleTime: TimeInterval

    /// An executor whose thread ends after `idleTime` seconds without work.
    init(idleTime: TimeInterval = 2) {
        self.idleTime = idleTime
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !hasThread
        hasThread = true
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in runJobs() }
            thread.name = "TrendStore writer"
            thread.start()
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs jobs in order until none has come for `idleTime`.
    private func runJobs() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    /// The next job, waiting up to `idleTime` for one; `nil` (and the thread marked gone) when
    /// none came.
    private func nextJob() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: idleTime)
        while next == jobs.count {
            if !condition.wait(until: deadline) && next == jobs.count {
                jobs.removeAll(keepingCapacity: false)
                next = 0
                hasThread = false
                return nil
            }
        }
        let job = jobs[next]
        next += 1
        if next == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            next = 0
        }
        return job
    }
}
