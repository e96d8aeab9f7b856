import Foundation
import LMDB

extension StoreEngine {
    /// The samples of `name` whose start lies in `[from, to)`, sorted by start then end.
    func samples(series name: String, from: Int64, to: Int64) throws -> [Sample] {
        try read { txn in
            let record = try requireSeries(named: name, in: txn)
            return try samples(of: record, from: from, to: to, in: txn, zlib: ZlibCodec())
        }
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
    func seriesInfos() throws -> [SeriesInfo] {
        try read { txn in
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

    /// The size of the store's data file in bytes.
    func fileSize() -> Int {
        let path = directory.appendingPathComponent("data.mdb").path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension StoreEngine {
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

extension StoreEngine {
    /// Calls `body` with the samples of each chunk of `name` holding starts in `[from, to)`,
    /// in time order, reusing one buffer; returns the number of samples passed.
    func forEachChunk(
        series name: String, from: Int64, to: Int64, _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        try read { txn in
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
}
