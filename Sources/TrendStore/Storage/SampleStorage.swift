import Foundation
import LMDB

/// The samples of a store: the series registry, the chunks of samples and their rollups,
/// in one LMDB environment.
///
/// The storage layer: it knows nothing of the aggregates, caches or the façade above it.
/// Readers pass any transaction; the write path (``SeriesWriter``) is given a write
/// transaction by the caller, who owns the environment's write lock.
final class SampleStorage: Sendable {
    /// Chunks hold one series' samples starting within one fixed UTC week.
    static let defaultChunkWindow: Int64 = 7 * TimeGrid.day

    let meta: Database
    let series: Database
    let chunks: Database
    let rollups: Database
    /// The chunk window of this store, in milliseconds (recorded in `meta`).
    let chunkWindow: Int64
    /// Chunks recently decoded by queries.
    let decodedChunks = DecodedChunkCache()

    /// Opens the sample databases of `environment`; `chunkWindow` comes from the store's settings.
    init(environment: Environment, meta: Database, chunkWindow: Int64) throws {
        self.meta = meta
        series = try environment.openDatabase(named: "series")
        chunks = try environment.openDatabase(named: "chunks")
        rollups = try environment.openDatabase(named: "rollups")
        self.chunkWindow = chunkWindow
    }

    // MARK: Series registry

    func seriesRecord<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> SeriesRecord?
    {
        let name = SeriesName.normalized(name)
        let key = Array(name.utf8)
        return try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: series) { SeriesRecord(name: name, bytes: $0) }
        } ?? nil
    }

    /// The record of `name`, or `StoreError.unknownSeries`.
    func requireSeries<T: ReadableTransaction & ~Copyable>(named name: String, in txn: borrowing T)
        throws -> SeriesRecord
    {
        guard let record = try seriesRecord(named: name, in: txn) else {
            let known = try allSeriesRecords(in: txn).map(\.name)
            throw StoreError.unknownSeries(
                name, closest: SeriesName.closest(to: name, among: known))
        }
        return record
    }

    func allSeriesRecords<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesRecord]
    {
        try txn.withCursor(series) { cursor in
            var records: [SeriesRecord] = []
            try cursor.forEach { key, value in
                let name = String(decoding: key, as: UTF8.self)
                if let record = SeriesRecord(name: name, bytes: value) { records.append(record) }
                return true
            }
            return records
        }
    }

    func saveSeriesRecord(_ record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        try txn.put(record.encoded(), forKey: Array(record.name.utf8), in: series)
    }

    func createSeries(named name: String, unit: String, in txn: borrowing WriteTransaction) throws
        -> SeriesRecord
    {
        let nextKey = Array("next-series-id".utf8)
        let next =
            try txn.value(forKey: nextKey, in: meta).map { bytes in
                bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
            } ?? 1
        let record = SeriesRecord(
            id: next, name: name, unit: unit, maximumDuration: 0,
            createdAt: Date().millisecondsSince1970)
        try saveSeriesRecord(record, in: txn)
        try txn.put(
            withUnsafeBytes(of: (next + 1).littleEndian, Array.init), forKey: nextKey, in: meta)
        return record
    }

    // MARK: Change counts

    /// How many committed writes have changed the samples of `record`: a counter in `meta`,
    /// raised in the transaction of each such write, so observers in any process can tell
    /// whether a series changed. 0 for a series no write changed since counting began.
    func changeCount<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, in txn: borrowing T
    ) throws -> UInt64 {
        try txn.value(forKey: Self.changeCountKey(record.id), in: meta).map { bytes in
            bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        } ?? 0
    }

    /// Raises the change count of `record` by one.
    func countChange(of record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        let next = try changeCount(of: record, in: txn) &+ 1
        try txn.put(
            withUnsafeBytes(of: next.littleEndian, Array.init),
            forKey: Self.changeCountKey(record.id), in: meta)
    }

    private static func changeCountKey(_ id: UInt32) -> [UInt8] {
        Array("changes/".utf8) + withUnsafeBytes(of: id.bigEndian, Array.init)
    }

    /// The store error for a chunk of `record` that failed to decode.
    func chunkDamage(_ record: SeriesRecord, window: Int64, _ error: any Error) -> StoreError {
        .damagedChunk(
            series: record.name, windowStart: window * chunkWindow,
            reason: (error as? ChunkCodec.Damage)?.reason ?? "\(error)")
    }

    // MARK: Keys and windows

    @inline(__always)
    func windowIndex(of instant: Int64) -> Int64 { instant.floorDivided(by: chunkWindow) }

    /// The chunk windows of `series` that exist in `lower...upper`, in order.
    func existingWindows<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, from lower: Int64, through upper: Int64, in txn: borrowing T
    ) throws -> [Int64] {
        try indices(in: chunks, series: id, from: lower, through: upper, txn: txn)
    }

    /// The indices of `database`'s keys for series `id` within `lower...upper`.
    func indices<T: ReadableTransaction & ~Copyable>(
        in database: Database, series id: UInt32, from lower: Int64, through upper: Int64,
        txn: borrowing T
    ) throws -> [Int64] {
        guard lower <= upper else { return [] }
        return try txn.withCursor(database) { cursor in
            var found: [Int64] = []
            try cursor.forEach(from: StorageKey.make(series: id, index: lower)) { key, _ in
                guard let parsed = StorageKey.parse(key), parsed.series == id, parsed.index <= upper
                else { return false }
                found.append(parsed.index)
                return true
            }
            return found
        }
    }

    /// The first chunk window of series `id` in `lower...upper`, or `nil`: one cursor seek.
    func firstWindow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, from lower: Int64, through upper: Int64, in txn: borrowing T
    ) throws -> Int64? {
        guard lower <= upper else { return nil }
        return try txn.withCursor(chunks) { cursor in
            guard let entry = try cursor.seek(atOrAfter: StorageKey.make(series: id, index: lower)),
                let parsed = StorageKey.parse(entry.key), parsed.series == id,
                parsed.index <= upper
            else { return nil }
            return parsed.index
        }
    }

    /// Decodes the chunk of `window`, appending its samples; `false` when there is none.
    func decodeChunk<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, window: Int64, zlib: ZlibCodec, in txn: borrowing T,
        appendingTo samples: inout [Sample]
    ) throws -> Bool {
        let key = StorageKey.make(series: record.id, index: window)
        let found: Bool? = try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: chunks) { bytes in
                do {
                    try ChunkCodec.decode(bytes, zlib: zlib, appendingTo: &samples)
                } catch {
                    throw chunkDamage(record, window: window, error)
                }
                return true
            }
        }
        return found ?? false
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

    func samples<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, from: Int64, to: Int64, in txn: borrowing T, zlib: ZlibCodec
    ) throws -> [Sample] {
        guard from < to else { return [] }
        let windows = try existingWindows(
            series: record.id, from: windowIndex(of: from), through: windowIndex(of: to - 1),
            in: txn)
        var result: [Sample] = []
        for window in windows {
            let firstNew = result.count
            _ = try decodeChunk(record, window: window, zlib: zlib, in: txn, appendingTo: &result)
            let windowStart = window * chunkWindow
            if windowStart < from || windowStart + chunkWindow > to {
                let kept = result[firstNew...].filter {
                    $0.startMilliseconds >= from && $0.startMilliseconds < to
                }
                result.replaceSubrange(firstNew..., with: kept)
            }
        }
        return result
    }

    /// Every series with its sample count and time span, read from chunk headers.
    func seriesInfos<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesInfo]
    {
        try allSeriesRecords(in: txn).map { record in
            var count = 0
            var first = Int64.max
            var last = Int64.min
            try txn.withCursor(chunks) { cursor in
                try cursor.forEach(from: StorageKey.make(series: record.id, index: .min)) {
                    key, value in
                    guard let parsed = StorageKey.parse(key), parsed.series == record.id else {
                        return false
                    }
                    let header = try ChunkCodec.header(value)
                    count += header.count
                    first = min(first, header.minimumStart)
                    last = max(last, header.maximumEnd)
                    return true
                }
            }
            return SeriesInfo(
                name: record.name, unit: record.unit, sampleCount: count,
                firstStart: count > 0 ? Date(milliseconds: first) : nil,
                lastEnd: count > 0 ? Date(milliseconds: last) : nil)
        }
    }
}

extension SampleStorage {
    /// The earliest sample start of `record`, from its first chunk's header.
    func firstStart<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, in txn: borrowing T
    ) throws -> Int64? {
        try txn.withCursor(chunks) { cursor in
            guard
                let entry = try cursor.seek(
                    atOrAfter: StorageKey.make(series: record.id, index: .min)),
                let parsed = StorageKey.parse(entry.key), parsed.series == record.id
            else { return nil }
            do {
                return try ChunkCodec.header(entry.value).minimumStart
            } catch {
                throw chunkDamage(record, window: parsed.index, error)
            }
        }
    }
}

extension SampleStorage {
    /// Calls `body` with the samples of each chunk of `name` holding starts in `[from, to)`,
    /// in time order, reusing one buffer; returns the number of samples passed.
    func forEachChunk<T: ReadableTransaction & ~Copyable>(
        series name: String, from: Int64, to: Int64, in txn: borrowing T,
        _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        let record = try requireSeries(named: name, in: txn)
        guard from < to else { return 0 }
        let zlib = ZlibCodec()
        var buffer: [Sample] = []
        var total = 0
        for window in try existingWindows(
            series: record.id, from: windowIndex(of: from), through: windowIndex(of: to - 1),
            in: txn)
        {
            buffer.removeAll(keepingCapacity: true)
            _ = try decodeChunk(
                record, window: window, zlib: zlib, in: txn, appendingTo: &buffer)
            let windowStart = window * chunkWindow
            if windowStart < from || windowStart + chunkWindow > to {
                buffer.removeAll { $0.startMilliseconds < from || $0.startMilliseconds >= to }
            }
            total += buffer.count
            try body(buffer)
        }
        return total
    }
}
