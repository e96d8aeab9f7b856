import Synchronization

/// A decoded block with the running maximum of its ends, shared read-only between queries;
/// or the merged view of several sources' samples over a range, made for one read.
final class DecodedBlock: Sendable {
    /// The samples, sorted by start then end.
    let samples: [Sample]
    /// `prefixMaximumEnd[i]` is the greatest end among `samples[0...i]`.
    let prefixMaximumEnd: [Int64]
    /// What each sample stands for in the merged view of several sources (``SourceMerge``);
    /// `nil` for a stored block, whose samples all count whole.
    let roles: [SampleRole]?

    init(samples: [Sample], roles: [SampleRole]? = nil) {
        self.samples = samples
        self.roles = roles
        var running = Int64.min
        prefixMaximumEnd = samples.map { sample in
            running = max(running, sample.endMilliseconds)
            return running
        }
    }
}

/// The blocks decoded by queries and written by this process lately, so a widget asking for
/// today's curve every few seconds does not inflate the current block each time, the weekday
/// averages of a 70-day window asked one after another (seven of them, in a zone whose hours
/// the summaries do not share) inflate its blocks once, and a stream of one-sample commits
/// does not inflate the block each of them rewrites.
///
/// It holds up to ``sampleBudget`` samples (4 MiB decoded) in at most ``entryLimit`` blocks,
/// dropping the least recently used first; a budget by samples rather than blocks keeps a
/// window of small blocks whole without letting dense ones take more memory.
///
/// An entry is used only while the stored block's header (checksum, count, bounds, value
/// sum) is unchanged, so writes from this or another process are seen at once.
final class DecodedBlockCache: Sendable {
    private struct Key: Hashable {
        let series: UInt32
        let firstStart: Int64
    }
    /// The header fields that tell whether a stored block changed.
    private struct Summary: Equatable {
        let count: Int
        let minimumStart: Int64
        let maximumEnd: Int64
        let valueSumBits: UInt64
        let checksum: UInt32

        init(_ header: BlockCodec.Header) {
            count = header.count
            minimumStart = header.minimumStart
            maximumEnd = header.maximumEnd
            valueSumBits = header.valueSum.bitPattern
            checksum = header.checksum
        }
    }
    private struct Entry {
        let summary: Summary
        let block: DecodedBlock
        var lastUse: UInt64
    }
    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        /// The samples of every entry.
        var samples = 0
    }

    private let state = Mutex(State())
    /// The most samples the cache holds (more only while its one block holds more).
    let sampleBudget: Int
    /// The most blocks it holds.
    let entryLimit: Int

    init(sampleBudget: Int = 131_072, entryLimit: Int = 256) {
        self.sampleBudget = sampleBudget
        self.entryLimit = entryLimit
    }

    /// The samples the cache holds now.
    var heldSamples: Int { state.withLock { $0.samples } }

    /// The decoded samples of the block of `record` keyed `firstStart`, stored as `bytes`,
    /// decoding them when the cache does not hold them; `known` is its header when the
    /// caller has read it (else it is read here).
    func block(
        _ firstStart: Int64, of record: SeriesRecord, bytes: UnsafeRawBufferPointer,
        header known: BlockCodec.Header? = nil, storage: SampleStorage, zlib: ZlibCodec
    ) throws -> DecodedBlock {
        let header: BlockCodec.Header
        do {
            header = try known ?? BlockCodec.header(bytes)
        } catch {
            throw storage.blockDamage(record, firstStart: firstStart, error)
        }
        let key = Key(series: record.id, firstStart: firstStart)
        let summary = Summary(header)
        let cached: DecodedBlock? = state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key], entry.summary == summary else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.block
        }
        if let cached { return cached }
        var samples: [Sample] = []
        try storage.decodeBlock(
            bytes, header: header, firstStart: firstStart, of: record, zlib: zlib,
            appendingTo: &samples)
        let block = DecodedBlock(samples: samples)
        insert(block, key: key, summary: summary)
        return block
    }

    /// Whether the cache holds the block of `record` keyed `firstStart` whose stored header is
    /// `header`.
    func holds(_ firstStart: Int64, of record: SeriesRecord, header: BlockCodec.Header) -> Bool {
        let key = Key(series: record.id, firstStart: firstStart)
        return state.withLock { $0.entries[key]?.summary == Summary(header) }
    }

    /// Decodes `blocks` of `record` (each its key, stored header and bytes) on several
    /// threads, and keeps them: a scan of all time asks for them one after another next, each
    /// then found here. A block that does not decode is left for that read to report.
    func prefetch(
        _ blocks: [(firstStart: Int64, header: BlockCodec.Header, bytes: [UInt8])],
        of record: SeriesRecord, storage: SampleStorage
    ) throws {
        let decoded = try ConcurrentWork.map(blocks, state: { ZlibCodec() }) {
            block, zlib -> DecodedBlock? in
            var samples: [Sample] = []
            guard
                (try? block.bytes.withUnsafeBytes {
                    try storage.decodeBlock(
                        $0, header: block.header, firstStart: block.firstStart, of: record,
                        zlib: zlib, appendingTo: &samples)
                }) != nil
            else { return nil }
            return DecodedBlock(samples: samples)
        }
        for (block, decoded) in zip(blocks, decoded) {
            guard let decoded else { continue }
            insert(
                decoded, key: Key(series: record.id, firstStart: block.firstStart),
                summary: Summary(block.header))
        }
    }

    /// Holds `samples`, just written as the block of `record` keyed `firstStart` with
    /// `header`, so the next write or query of that block does not inflate it again (a
    /// stream of one-sample commits rewrites the same block each time). Were the write's
    /// transaction to abort, the entry would match no stored header, and no read would use it.
    func hold(
        _ samples: [Sample], header: BlockCodec.Header, firstStart: Int64, of record: SeriesRecord
    ) {
        insert(
            DecodedBlock(samples: samples), key: Key(series: record.id, firstStart: firstStart),
            summary: Summary(header))
    }

    private func insert(_ block: DecodedBlock, key: Key, summary: Summary) {
        state.withLock { state in
            state.clock += 1
            if let replaced = state.entries.removeValue(forKey: key) {
                state.samples -= replaced.block.samples.count
            }
            while !state.entries.isEmpty
                && (state.entries.count >= entryLimit
                    || state.samples + block.samples.count > sampleBudget),
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                state.samples -= oldest.value.block.samples.count
            }
            state.entries[key] = Entry(summary: summary, block: block, lastUse: state.clock)
            state.samples += block.samples.count
        }
    }
}
