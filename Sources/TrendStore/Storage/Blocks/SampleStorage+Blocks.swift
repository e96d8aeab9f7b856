import Foundation
import LMDB

extension SampleStorage {
    /// The first starts (keys) of the blocks of `record` that may hold samples starting in
    /// `[from, through]`, in time order; with a `limit`, at most that many.
    func blockStarts<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, startingFrom from: Int64, through: Int64, limit: Int = .max,
        in txn: borrowing T
    ) throws -> [Int64] {
        var found: [Int64] = []
        guard limit > 0 else { return found }
        try forEachBlock(of: record, startingFrom: from, through: through, in: txn) {
            firstStart, _, _ in
            found.append(firstStart)
            return found.count < limit
        }
        return found
    }

    /// Calls `body(firstStart, bytes, header)` for each block of `record` that may hold
    /// samples starting in `[from, through]`, in time order, with its stored bytes, until
    /// `body` returns `false`: one cursor walk, no lookup per block. `header` is the block's
    /// header when the walk has read it (the block before `from`, to see whether it reaches
    /// `from`), so that no block's header is read twice; else `nil`.
    func forEachBlock<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, startingFrom from: Int64, through: Int64, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer, BlockCodec.Header?) throws -> Bool
    ) throws {
        var boundary: (firstStart: Int64, header: BlockCodec.Header)?
        try blocks.forEachBlock(
            series: record.id, startingFrom: from, through: through, in: txn,
            reaches: { firstStart, bytes in
                do {
                    let header = try BlockCodec.header(bytes)
                    boundary = (firstStart, header)
                    return header.maximumStart >= from
                } catch {
                    throw blockDamage(record, firstStart: firstStart, error)
                }
            },
            { firstStart, bytes in
                let known = boundary.flatMap { $0.firstStart == firstStart ? $0.header : nil }
                return try body(firstStart, bytes, known)
            })
    }

    /// Whether the blocks that may hold starts in `[from, through]` hold more than `limit`
    /// samples, read from their headers without decoding (they hold at least the samples
    /// starting there, and at most two blocks' worth more); the walk stops at the first
    /// block past the limit. For choosing between raw samples and rollups.
    func holdsMoreSamples<T: ReadableTransaction & ~Copyable>(
        than limit: Int, of record: SeriesRecord, startingFrom from: Int64, through: Int64,
        in txn: borrowing T
    ) throws -> Bool {
        var count = 0
        let streams = record.hasSources ? try streams(of: record, in: txn).map(\.record) : [record]
        for stream in streams where count <= limit {
            try forEachBlock(of: stream, startingFrom: from, through: through, in: txn) {
                firstStart, bytes, header in
                do {
                    count += try (header ?? BlockCodec.header(bytes)).count
                } catch {
                    throw blockDamage(record, firstStart: firstStart, error)
                }
                return count <= limit
            }
        }
        return count > limit
    }

    /// Calls `body` with the stored bytes of the block of `record` keyed `firstStart`; `nil`
    /// when it is not stored.
    func withBlock<T: ReadableTransaction & ~Copyable, R>(
        _ firstStart: Int64, of record: SeriesRecord, in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try blocks.withBlock(series: record.id, firstStart: firstStart, in: txn, body)
    }

    /// Decodes `bytes`, the block of `record` keyed `firstStart`, appending its samples;
    /// `header` is its header when the caller has read it (else it is read here).
    ///
    /// - Throws: ``StoreError/Code/damagedBlock``.
    func decodeBlock(
        _ bytes: UnsafeRawBufferPointer, header: BlockCodec.Header? = nil, firstStart: Int64,
        of record: SeriesRecord, zlib: ZlibCodec, appendingTo samples: inout [Sample]
    ) throws {
        do {
            try BlockCodec.decode(
                bytes, header: header ?? BlockCodec.header(bytes), zlib: zlib,
                appendingTo: &samples)
        } catch {
            throw blockDamage(record, firstStart: firstStart, error)
        }
    }

    /// The store error for the block of `record` keyed `firstStart` that failed to decode.
    func blockDamage(_ record: SeriesRecord, firstStart: Int64, _ error: any Error) -> StoreError {
        .damagedBlock(
            series: record.name, firstStart: firstStart,
            reason: (error as? BlockDamage)?.reason ?? "\(error)")
    }
}

extension SampleStorage {
    /// The samples of `name` whose start lies in `[from, to)`, sorted by start then end.
    func samples<T: ReadableTransaction & ~Copyable>(
        series name: String, from: Int64, to: Int64, in txn: borrowing T
    ) throws -> [Sample] {
        let record = try requireSeries(named: name, in: txn)
        return try samples(of: record, from: from, to: to, in: txn, zlib: ZlibCodec())
    }

    /// The samples of `record` whose start lies in `[from, to)`, sorted by start then end.
    func samples<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, from: Int64, to: Int64, in txn: borrowing T, zlib: ZlibCodec
    ) throws -> [Sample] {
        var result: [Sample] = []
        _ = try forEachBlockOfSamples(of: record, from: from, to: to, in: txn, zlib: zlib) {
            result.append(contentsOf: $0)
        }
        return result
    }

    /// The samples of `record` starting on UTC day `day` (days since 1970), sorted by start
    /// then end.
    func samples<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, onUTCDay day: Int64, in txn: borrowing T, zlib: ZlibCodec
    ) throws -> [Sample] {
        try samples(
            of: record, from: day * TimeGrid.day, to: (day + 1) * TimeGrid.day, in: txn,
            zlib: zlib)
    }

    /// Calls `body` with the samples of each block of `record` holding starts in
    /// `[from, to)`, in time order, reusing one buffer; returns the number of samples passed.
    func forEachBlockOfSamples<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, from: Int64, to: Int64, in txn: borrowing T, zlib: ZlibCodec,
        _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        guard from < to else { return 0 }
        var buffer: [Sample] = []
        var total = 0
        try forEachBlock(of: record, startingFrom: from, through: to - 1, in: txn) {
            firstStart, bytes, header in
            buffer.removeAll(keepingCapacity: true)
            try decodeBlock(
                bytes, header: header, firstStart: firstStart, of: record, zlib: zlib,
                appendingTo: &buffer)
            if let first = buffer.first, let last = buffer.last,
                first.startMilliseconds < from || last.startMilliseconds >= to
            {
                buffer.removeAll { $0.startMilliseconds < from || $0.startMilliseconds >= to }
            }
            guard !buffer.isEmpty else { return true }
            total += buffer.count
            try body(buffer)
            return true
        }
        return total
    }

    /// Calls `body` with the samples of each block of `name` holding starts in `[from, to)`.
    func forEachBlockOfSamples<T: ReadableTransaction & ~Copyable>(
        series name: String, from: Int64, to: Int64, in txn: borrowing T,
        _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        let record = try requireSeries(named: name, in: txn)
        return try forEachBlockOfSamples(
            of: record, from: from, to: to, in: txn, zlib: ZlibCodec(), body)
    }

    /// Every series with its sample count and time span (of all its sources), read from
    /// block headers.
    func seriesInfos<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesInfo]
    {
        try allSeriesRecords(in: txn).map { record in
            var span = StreamSpan()
            for stream in try streams(of: record, in: txn) {
                span.add(try self.span(of: stream.record, in: txn))
            }
            return SeriesInfo(
                name: record.name, unit: record.unit, kind: record.kind,
                sampleCount: span.count, firstStart: span.firstStart, lastEnd: span.lastEnd)
        }
    }

    /// The sample count and time span of the blocks of `record` (one stream), from their
    /// headers, each block's checksum checked first (a damaged header would give a span
    /// silently wrong; the checksum costs a pass over the bytes, not an inflate).
    func span<T: ReadableTransaction & ~Copyable>(of record: SeriesRecord, in txn: borrowing T)
        throws -> StreamSpan
    {
        var span = StreamSpan()
        try blocks.forEachBlock(series: record.id, in: txn) { firstStart, bytes in
            do {
                let header = try BlockCodec.header(bytes)
                guard BlockCodec.checksum(of: bytes) == header.checksum else {
                    throw BlockDamage(reason: "block checksum mismatch")
                }
                span.add(
                    StreamSpan(
                        count: header.count, first: header.minimumStart, last: header.maximumEnd))
            } catch {
                throw blockDamage(record, firstStart: firstStart, error)
            }
            return true
        }
        return span
    }

    /// The earliest sample start of `record` (of any of its sources), from the first block
    /// headers.
    func firstStart<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, in txn: borrowing T
    ) throws -> Int64? {
        var earliest: Int64?
        for stream in try streams(of: record, in: txn) {
            try blocks.forEachBlock(series: stream.record.id, in: txn) { firstStart, bytes in
                do {
                    let start = try BlockCodec.header(bytes).minimumStart
                    earliest = min(earliest ?? start, start)
                } catch {
                    throw blockDamage(record, firstStart: firstStart, error)
                }
                return false
            }
        }
        return earliest
    }
}

/// How many samples a stream of blocks holds, and the time they span.
struct StreamSpan {
    var count = 0
    var first = Int64.max
    var last = Int64.min

    /// The earliest start; `nil` without samples.
    var firstStart: Date? { count > 0 ? Date(milliseconds: first) : nil }
    /// The latest end; `nil` without samples.
    var lastEnd: Date? { count > 0 ? Date(milliseconds: last) : nil }

    /// Adds the samples of `other`.
    mutating func add(_ other: StreamSpan) {
        count += other.count
        first = min(first, other.first)
        last = max(last, other.last)
    }
}
