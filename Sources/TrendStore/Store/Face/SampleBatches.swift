import Foundation
import LMDB

/// The samples of one series in a time range, read one stored block (a few thousand samples)
/// at a time, each in its own short read transaction: for exports and scans of any size in
/// flat memory.
///
/// ```swift
/// for try await block in store.sampleBatches(of: "activeEnergy", from: start, to: end) {
///     for sample in block { write(sample) }
/// }
/// ```
///
/// Each block is one consistent read; a write that commits between two blocks may show in
/// the later one. For one snapshot of any range, use
/// ``StoreSnapshot/forEachSampleBatch(of:from:to:source:_:)`` inside ``TrendStore/read(_:)``.
public struct SampleBatches: AsyncSequence, Sendable {
    /// A block's samples that start in the range, sorted by start then end.
    public typealias Element = [Sample]

    let engine: StoreEngine
    let series: String
    let from: Int64
    let to: Int64

    /// The iterator: reads the next stored block when asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let engine: StoreEngine
        let series: String
        /// The earliest start not yet returned.
        var position: Int64
        let to: Int64
        /// Whether the store's blocks were seen to be all reachable (checked before the first block).
        var checkedReach = false

        /// The next block's samples in the range, or `nil` after the last.
        ///
        /// - Throws: ``StoreError/Code/storage`` with `MDB_CORRUPTED`
        ///   before the first block when a damaged page hides blocks from a walk (the
        ///   sequence would otherwise end short).
        public mutating func next() async throws -> [Sample]? {
            guard position < to else { return nil }
            if !checkedReach {
                try engine.read { txn in try engine.storage.checkReach(in: txn) }
                checkedReach = true
            }
            let samples = try engine.nextBlock(of: series, from: position, before: to)
            guard let last = samples.last else {
                position = to
                return nil
            }
            // Samples sharing a start are never split between blocks.
            position = last.startMilliseconds + 1
            return samples
        }
    }

    /// Starts reading at the range's first block.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(engine: engine, series: series, position: from, to: to)
    }
}

extension TrendStore {
    /// The samples of `series` that start in `[from, to)`, one stored block at a time,
    /// without holding them all in memory.
    public nonisolated func sampleBatches(of series: String, from: Date, to: Date) -> SampleBatches
    {
        SampleBatches(
            engine: engine, series: series, from: from.millisecondsSince1970,
            to: to.millisecondsSince1970)
    }
}

extension StoreEngine {
    /// The samples starting in `[from, to)` of the first stored block of `series` that
    /// holds any, in one read transaction; empty when there are no more.
    func nextBlock(of series: String, from: Int64, before to: Int64) throws -> [Sample] {
        try read { txn in
            try nextBlock(
                of: try storage.requireSeries(named: series, in: txn), from: from, before: to,
                in: txn)
        }
    }

    /// The samples starting in `[from, to)` of the first stored block of `record` in `txn`
    /// that holds any; empty when there are no more.
    func nextBlock<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, from: Int64, before to: Int64, in txn: borrowing T
    ) throws -> [Sample] {
        guard from < to,
            let firstStart = try storage.blockStarts(
                of: record, startingFrom: from, through: to - 1, limit: 1, in: txn
            ).first
        else { return [] }
        var samples: [Sample] = []
        _ = try storage.withBlock(firstStart, of: record, in: txn) { bytes in
            try storage.decodeBlock(
                bytes, firstStart: firstStart, of: record, zlib: ZlibCodec(),
                appendingTo: &samples)
        }
        // Empty when its starts from `from` on are all at or after `to`: every later
        // block starts later still.
        samples.removeAll { $0.startMilliseconds < from || $0.startMilliseconds >= to }
        return samples
    }
}
