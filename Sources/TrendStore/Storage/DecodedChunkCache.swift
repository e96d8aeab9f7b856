import Synchronization

/// A decoded chunk with the running maximum of its ends, shared read-only between queries.
final class DecodedChunk: Sendable {
    /// The samples, sorted by start then end.
    let samples: [Sample]
    /// `prefixMaximumEnd[i]` is the greatest end among `samples[0...i]`.
    let prefixMaximumEnd: [Int64]

    init(samples: [Sample]) {
        self.samples = samples
        var running = Int64.min
        prefixMaximumEnd = samples.map { sample in
            running = max(running, sample.endMilliseconds)
            return running
        }
    }
}

/// The last few pieces (blocks or chunks) decoded by queries, so a widget asking for
/// today's curve every few seconds does not inflate the current block each time.
///
/// An entry is used only while the stored piece's header (checksum, count, bounds,
/// value sum) is unchanged, so writes from this or another process are seen at once.
final class DecodedChunkCache: Sendable {
    private struct Key: Hashable {
        let series: UInt32
        let piece: StoredPiece
    }
    private struct Entry {
        let summary: PieceSummary
        let chunk: DecodedChunk
        var lastUse: UInt64
    }
    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 8) { self.capacity = capacity }

    /// The decoded samples of `piece` of `record`, stored as `bytes`, decoding them when
    /// the cache does not hold them.
    func chunk(
        _ piece: StoredPiece, of record: SeriesRecord, bytes: UnsafeRawBufferPointer,
        storage: SampleStorage, zlib: ZlibCodec
    ) throws -> DecodedChunk {
        let summary: PieceSummary
        do {
            summary = try PieceSummary(piece, bytes: bytes)
        } catch {
            throw storage.chunkDamage(record, piece: piece, error)
        }
        let key = Key(series: record.id, piece: piece)
        let cached: DecodedChunk? = state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key], entry.summary == summary else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.chunk
        }
        if let cached { return cached }
        var samples: [Sample] = []
        try storage.decode(piece, bytes: bytes, of: record, zlib: zlib, appendingTo: &samples)
        let chunk = DecodedChunk(samples: samples)
        state.withLock { state in
            if state.entries.count >= capacity, state.entries[key] == nil,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries[oldest] = nil
            }
            state.entries[key] = Entry(summary: summary, chunk: chunk, lastUse: state.clock)
        }
        return chunk
    }
}
