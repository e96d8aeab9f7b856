import Dispatch

/// The serial executor a ``TrendStore`` actor runs on: a serial dispatch queue of its own,
/// outside Swift's cooperative pool, so a write waiting for LMDB's writer lock (held by
/// another process) or for the disk blocks one of dispatch's threads for such work, which
/// it adds as needed, and never one of the pool's few threads.
///
/// Dispatch starts and ends the queue's threads: a handle that is not written to holds none.
final class WriterExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "TrendStore writer")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
