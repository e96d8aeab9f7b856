import Foundation
import LMDB

/// The samples of one series in a time range, read one stored chunk (one UTC week) at a time,
/// each in its own short read transaction: for exports and scans of any size in flat memory.
///
/// ```swift
/// for try await week in store.sampleBatches(of: "activeEnergy", from: start, to: end) {
///     for sample in week { write(sample) }
/// }
/// ```
///
/// Each chunk is one consistent read; a write that commits between two chunks may show in
/// the later one. For one snapshot of a bounded range, use ``StoreSnapshot/samples(of:from:to:)``.
public struct SampleBatches: AsyncSequence, Sendable {
    /// A chunk's samples that start in the range, sorted by start then end.
    public typealias Element = [Sample]

    let engine: StoreEngine
    let series: String
    let from: Int64
    let to: Int64

    /// The iterator: reads the next stored chunk when asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let engine: StoreEngine
        let series: String
        var nextWindow: Int64
        let lastWindow: Int64
        let from: Int64
        let to: Int64

        /// The next chunk's samples in the range, or `nil` after the last.
        public mutating func next() async throws -> [Sample]? {
            while nextWindow <= lastWindow {
                let (window, samples) = try engine.nextChunk(
                    of: series, from: nextWindow, through: lastWindow, starting: from..<to)
                guard let window else { return nil }
                nextWindow = window + 1
                if !samples.isEmpty { return samples }
            }
            return nil
        }
    }

    /// Starts reading at the range's first chunk.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            engine: engine, series: series,
            nextWindow: from < to ? engine.storage.windowIndex(of: from) : 1,
            lastWindow: from < to ? engine.storage.windowIndex(of: to - 1) : 0, from: from, to: to)
    }
}

extension TrendStore {
    /// The samples of `series` that start in `[from, to)`, one stored chunk at a time,
    /// without holding them all in memory.
    public nonisolated func sampleBatches(of series: String, from: Date, to: Date) -> SampleBatches
    {
        SampleBatches(
            engine: engine, series: series, from: from.millisecondsSince1970,
            to: to.millisecondsSince1970)
    }
}

extension StoreEngine {
    /// The first stored chunk window of `series` in `from...through` and its samples
    /// starting in `range`, in one read transaction; `nil` window when there is none.
    func nextChunk(
        of series: String, from: Int64, through: Int64, starting range: Range<Int64>
    ) throws -> (window: Int64?, samples: [Sample]) {
        try read { txn in
            let record = try storage.requireSeries(named: series, in: txn)
            guard
                let window = try storage.firstWindow(
                    series: record.id, from: from, through: through, in: txn)
            else { return (nil, []) }
            var samples: [Sample] = []
            _ = try storage.decodeChunk(
                record, window: window, zlib: ZlibCodec(), in: txn, appendingTo: &samples)
            samples.removeAll { !range.contains($0.startMilliseconds) }
            return (window, samples)
        }
    }
}
