import Foundation

/// Parses a ``SliceSource`` on worker threads while the writer takes the slices, in file
/// order, as they are ready.
///
/// Workers take turns cutting the next piece (under the lock, so pieces keep file order),
/// parse it on their own, and hand the slice in by its sequence number. At most
/// `capacity` slices wait for the writer: a worker that runs ahead waits too, so memory
/// stays flat however fast the parsers are. With no workers the writer cuts and parses
/// each slice itself, one thing at a time.
final class SlicePipeline<Source: SliceSource>: @unchecked Sendable {
    private let source: Source
    private let condition = NSCondition()
    private let capacity: Int
    private let inline: Bool
    // Guarded by `condition`:
    private var nextToCut = 0
    private var nextToTake = 0
    private var ready: [Int: ParsedSlice] = [:]
    /// How many pieces there are, once the source has ended.
    private var total: Int?
    private var stopped = false
    private var runningWorkers = 0
    private var waiter: CheckedContinuation<ParsedSlice?, Never>?

    /// The bytes of pieces the parsing threads may hold at once: an import asked for more
    /// threads than pieces of its source fit in this runs fewer (each thread holds the piece
    /// it parses and the slice it makes of it), so memory stays bounded whatever `--threads`
    /// and one record's size say.
    static var pieceBudget: Int { 32 << 20 }

    /// How many of `requested` parsing threads run for pieces of at most `longestPiece` bytes:
    /// as many as ``pieceBudget`` holds, at least one (none when none is asked for).
    static func workers(requested: Int, longestPiece: Int) -> Int {
        guard requested > 0 else { return 0 }
        return min(requested, max(1, pieceBudget / max(1, longestPiece)))
    }

    /// Starts up to `workers` threads parsing `source` (none: the caller parses in
    /// ``next()``), as many as ``pieceBudget`` holds, with at most `capacity` slices parsed
    /// ahead of the writer.
    init(source: Source, workers requested: Int, capacity: Int = 16) {
        let workers = Self.workers(requested: requested, longestPiece: source.longestPiece)
        self.source = source
        self.capacity = max(capacity, workers + 1)
        inline = workers == 0
        runningWorkers = workers
        for _ in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.name = "trendstore-import-parse"
            thread.start()
        }
    }

    /// The size of the file in bytes, for progress.
    var totalBytes: Int { source.totalBytes }

    /// The next slice in file order, or `nil` after the last.
    func next() async -> ParsedSlice? {
        if inline { return nextInline() }
        return await withCheckedContinuation { continuation in
            condition.lock()
            if let slice = takeReady() {
                condition.unlock()
                continuation.resume(returning: slice)
            } else if stopped || total == nextToTake {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiter = continuation
                condition.unlock()
            }
        }
    }

    /// Stops the workers (after the piece each is parsing) and waits until they have exited.
    func stop() {
        condition.lock()
        stopped = true
        ready.removeAll()
        condition.broadcast()
        while runningWorkers > 0 { condition.wait() }
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    /// Cuts and parses the next slice on the caller's thread.
    private func nextInline() -> ParsedSlice? {
        do {
            guard let piece = try source.cut() else { return nil }
            return source.parse(piece)
        } catch {
            var slice = ParsedSlice()
            slice.failure = error
            return slice
        }
    }

    /// The slice the writer wants, when it is ready (call with the lock held).
    private func takeReady() -> ParsedSlice? {
        guard let slice = ready.removeValue(forKey: nextToTake) else { return nil }
        nextToTake += 1
        condition.broadcast()
        return slice
    }

    /// One worker: cut, parse, hand in, until the source ends or the pipeline stops.
    private func work() {
        while true {
            condition.lock()
            while !stopped && total == nil && nextToCut >= nextToTake + capacity {
                condition.wait()
            }
            if stopped || total != nil {
                exitWorker()
                return
            }
            let sequence = nextToCut
            let slice: ParsedSlice
            do {
                // Cutting reads the file, so it runs under the lock: pieces keep file order.
                guard let piece = try source.cut() else {
                    total = min(total ?? .max, sequence)
                    wakeWriterAtEnd()
                    exitWorker()
                    return
                }
                nextToCut += 1
                condition.unlock()
                slice = source.parse(piece)
                condition.lock()
            } catch {
                nextToCut += 1
                var failed = ParsedSlice()
                failed.failure = error
                slice = failed
            }
            if slice.failure != nil { total = min(total ?? .max, sequence + 1) }
            if stopped {
                exitWorker()
                return
            }
            ready[sequence] = slice
            if let waiting = waiter, let taken = takeReady() {
                waiter = nil
                condition.unlock()
                waiting.resume(returning: taken)
            } else {
                condition.unlock()
            }
        }
    }

    /// Resumes a waiting writer with `nil` once every slice has been taken (lock held).
    private func wakeWriterAtEnd() {
        condition.broadcast()
        guard total == nextToTake, let waiting = waiter else { return }
        waiter = nil
        condition.unlock()
        waiting.resume(returning: nil)
        condition.lock()
    }

    /// Leaves the worker loop (lock held on entry, released on return).
    private func exitWorker() {
        runningWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }
}
