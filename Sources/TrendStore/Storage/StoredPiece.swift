import Foundation
import LMDB

/// One stored run of a series' samples: a format-2 block or a format-1 chunk.
enum StoredPiece: Hashable, Sendable {
    /// A block in `blocks`, keyed by its smallest start; it holds the starts from there
    /// up to the next block's key.
    case block(firstStart: Int64)
    /// A format-1 chunk in `chunks`, holding the starts of one window.
    case chunk(window: Int64)

    /// The earliest start the piece can hold.
    func lowerBound(chunkWindow: Int64) -> Int64 {
        switch self {
        case .block(let firstStart): firstStart
        case .chunk(let window): window &* chunkWindow
        }
    }
}

/// What a piece's header says about it, enough to tell whether it changed.
struct PieceSummary: Equatable, Sendable {
    var count: Int
    var minimumStart: Int64
    var maximumEnd: Int64
    var valueSumBits: UInt64
    var checksum: UInt32

    /// Reads the summary from a stored piece's header, without inflating it.
    init(_ piece: StoredPiece, bytes: UnsafeRawBufferPointer) throws(ChunkDamage) {
        switch piece {
        case .block:
            let header = try BlockCodec.header(bytes)
            self.init(
                count: header.count, minimumStart: header.minimumStart,
                maximumEnd: header.maximumEnd, valueSumBits: header.valueSum.bitPattern,
                checksum: header.checksum)
        case .chunk:
            let header = try ChunkCodec.header(bytes)
            self.init(
                count: header.count, minimumStart: header.minimumStart,
                maximumEnd: header.maximumEnd, valueSumBits: header.valueSum.bitPattern,
                checksum: header.checksum)
        }
    }

    private init(
        count: Int, minimumStart: Int64, maximumEnd: Int64, valueSumBits: UInt64, checksum: UInt32
    ) {
        self.count = count
        self.minimumStart = minimumStart
        self.maximumEnd = maximumEnd
        self.valueSumBits = valueSumBits
        self.checksum = checksum
    }
}

extension SampleStorage {
    /// The key of `piece` of series `id` and the database it lives in (`nil` when that
    /// database does not exist).
    func location(of piece: StoredPiece, series id: UInt32) -> (key: [UInt8], database: Database?) {
        switch piece {
        case .block(let firstStart): (StorageKey.make(series: id, index: firstStart), blocks)
        case .chunk(let window): (StorageKey.make(series: id, index: window), chunks)
        }
    }

    /// The pieces of `record` that may hold samples starting in `[from, through]`, in time
    /// order; with a `limit`, the blocks found stop after that many.
    func pieces<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, startingFrom from: Int64, through: Int64, limit: Int = .max,
        in txn: borrowing T
    ) throws -> [StoredPiece] {
        guard from <= through else { return [] }
        var found: [StoredPiece] = []
        if limit > 0 {
            try forEachBlock(of: record, startingFrom: from, through: through, in: txn) {
                block, _ in
                found.append(block)
                return found.count < limit
            }
        }
        let windows = try indices(
            in: chunks, series: record.id, from: from.floorDivided(by: chunkWindow),
            through: through.floorDivided(by: chunkWindow), txn: txn)
        if !windows.isEmpty {
            found.append(contentsOf: windows.map { .chunk(window: $0) })
            found.sort {
                $0.lowerBound(chunkWindow: chunkWindow) < $1.lowerBound(chunkWindow: chunkWindow)
            }
        }
        return found
    }

    /// Calls `body(block, bytes)` for each block of `record` that may hold samples starting
    /// in `[from, through]`, in time order, with its stored bytes, until `body` returns
    /// `false`: one cursor walk, no lookup per block.
    func forEachBlock<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, startingFrom from: Int64, through: Int64, in txn: borrowing T,
        _ body: (StoredPiece, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        guard from <= through, let blocks else { return }
        try txn.withCursor(blocks) { cursor in
            let start = StorageKey.make(series: record.id, index: from)
            var entry = try cursor.seek(atOrAfter: start)
            let atFrom =
                entry.flatMap { StorageKey.parse($0.key) }.map {
                    $0.series == record.id && $0.index == from
                } ?? false
            if !atFrom {
                // The block before `from` holds starts up to the next key: include it when
                // its largest start reaches `from`.
                let previous = entry == nil ? try cursor.last() : try cursor.previous()
                if let previous, let parsed = StorageKey.parse(previous.key),
                    parsed.series == record.id
                {
                    let block = StoredPiece.block(firstStart: parsed.index)
                    let reaches: Bool
                    do {
                        reaches = try BlockCodec.header(previous.value).maximumStart >= from
                    } catch {
                        throw chunkDamage(record, piece: block, error)
                    }
                    if reaches, try !body(block, previous.value) { return }
                }
                // Back to the first block at or after `from` (a failed move leaves LMDB's
                // cursor nowhere: seek again then).
                if entry != nil {
                    entry = previous != nil ? try cursor.next() : try cursor.seek(atOrAfter: start)
                }
            }
            while let current = entry, let parsed = StorageKey.parse(current.key),
                parsed.series == record.id, parsed.index <= through,
                try body(.block(firstStart: parsed.index), current.value)
            {
                entry = try cursor.next()
            }
        }
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

    /// Calls `body` with the stored bytes of `piece`; `nil` when it is not stored.
    func withPiece<T: ReadableTransaction & ~Copyable, R>(
        _ piece: StoredPiece, of record: SeriesRecord, in txn: borrowing T,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        let (key, database) = location(of: piece, series: record.id)
        guard let database else { return nil }
        return try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: database, body)
        }
    }

    /// Decodes `bytes` of `piece`, appending its samples.
    func decode(
        _ piece: StoredPiece, bytes: UnsafeRawBufferPointer, of record: SeriesRecord,
        zlib: ZlibCodec, appendingTo samples: inout [Sample]
    ) throws {
        do {
            switch piece {
            case .block: try BlockCodec.decode(bytes, zlib: zlib, appendingTo: &samples)
            case .chunk: try ChunkCodec.decode(bytes, zlib: zlib, appendingTo: &samples)
            }
        } catch {
            throw chunkDamage(record, piece: piece, error)
        }
    }

    /// Decodes `piece`, appending its samples; `false` when it is not stored.
    func decode<T: ReadableTransaction & ~Copyable>(
        _ piece: StoredPiece, of record: SeriesRecord, zlib: ZlibCodec, in txn: borrowing T,
        appendingTo samples: inout [Sample]
    ) throws -> Bool {
        try withPiece(piece, of: record, in: txn) { bytes in
            try decode(piece, bytes: bytes, of: record, zlib: zlib, appendingTo: &samples)
        } != nil
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
        _ = try forEachPiece(of: record, from: from, to: to, in: txn, zlib: zlib) {
            result.append(contentsOf: $0)
        }
        return result
    }

    /// Calls `body` with the samples of each piece of `record` holding starts in
    /// `[from, to)`, in time order, reusing one buffer; returns the number of samples passed.
    func forEachPiece<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, from: Int64, to: Int64, in txn: borrowing T, zlib: ZlibCodec,
        _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        guard from < to else { return 0 }
        var buffer: [Sample] = []
        var total = 0
        for piece in try pieces(of: record, startingFrom: from, through: to - 1, in: txn) {
            buffer.removeAll(keepingCapacity: true)
            _ = try decode(piece, of: record, zlib: zlib, in: txn, appendingTo: &buffer)
            if let first = buffer.first, let last = buffer.last,
                first.startMilliseconds < from || last.startMilliseconds >= to
            {
                buffer.removeAll { $0.startMilliseconds < from || $0.startMilliseconds >= to }
            }
            guard !buffer.isEmpty else { continue }
            total += buffer.count
            try body(buffer)
        }
        return total
    }

    /// Calls `body` with the samples of each piece of `name` holding starts in `[from, to)`.
    func forEachChunk<T: ReadableTransaction & ~Copyable>(
        series name: String, from: Int64, to: Int64, in txn: borrowing T,
        _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        let record = try requireSeries(named: name, in: txn)
        return try forEachPiece(of: record, from: from, to: to, in: txn, zlib: ZlibCodec(), body)
    }

    /// Every series with its sample count and time span, read from piece headers.
    func seriesInfos<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SeriesInfo]
    {
        try allSeriesRecords(in: txn).map { record in
            var count = 0
            var first = Int64.max
            var last = Int64.min
            for (database, piece) in databasesAndPieces {
                try txn.withCursor(database) { cursor in
                    try cursor.forEach(from: StorageKey.make(series: record.id, index: .min)) {
                        key, value in
                        guard let parsed = StorageKey.parse(key), parsed.series == record.id else {
                            return false
                        }
                        let summary = try PieceSummary(piece(parsed.index), bytes: value)
                        count += summary.count
                        first = min(first, summary.minimumStart)
                        last = max(last, summary.maximumEnd)
                        return true
                    }
                }
            }
            return SeriesInfo(
                name: record.name, unit: record.unit, kind: record.kind, sampleCount: count,
                firstStart: count > 0 ? Date(milliseconds: first) : nil,
                lastEnd: count > 0 ? Date(milliseconds: last) : nil)
        }
    }

    /// The databases holding pieces, with the piece each key names.
    private var databasesAndPieces: [(Database, (Int64) -> StoredPiece)] {
        [(chunks, StoredPiece.chunk(window:))]
            + (blocks.map { [($0, StoredPiece.block(firstStart:))] } ?? [])
    }

    /// The earliest sample start of `record`, from its first piece's header.
    func firstStart<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, in txn: borrowing T
    ) throws -> Int64? {
        var earliest: Int64?
        for (database, piece) in databasesAndPieces {
            let start: Int64? = try txn.withCursor(database) { cursor in
                guard
                    let entry = try cursor.seek(
                        atOrAfter: StorageKey.make(series: record.id, index: .min)),
                    let parsed = StorageKey.parse(entry.key), parsed.series == record.id
                else { return nil }
                do {
                    return try PieceSummary(piece(parsed.index), bytes: entry.value).minimumStart
                } catch {
                    throw chunkDamage(record, piece: piece(parsed.index), error)
                }
            }
            if let start { earliest = min(earliest ?? start, start) }
        }
        return earliest
    }
}
