/// Encodes the blocks of a write on as many threads as it has parts, up to
/// ``ConcurrentWork/width``: choosing each block's coding and deflating it are most of a bulk
/// write's work, and each part's block depends on nothing but its samples. The blocks come
/// back in the parts' order, each the bytes ``BlockCodec/encode(_:zlib:keeping:segmented:)``
/// gives.
///
/// Parts of fewer than ``parallelSamples`` samples in all are encoded on the caller's thread:
/// a one-sample commit never leaves it.
struct PartEncoder: ~Copyable {
    /// The codec of the write transaction's thread.
    let zlib: ZlibCodec
    /// One codec per extra thread, made on first use.
    private var helpers: [ZlibCodec] = []

    /// The most parts a writer plans from one estimate of their bytes per sample and hands
    /// here at once: four, whatever the cores, so a write leaves the same blocks on every
    /// machine.
    static let partsPerRound = 4
    /// The fewest samples worth handing to other threads.
    static let parallelSamples = 2_048

    /// An encoder whose first thread uses `zlib`.
    init(zlib: ZlibCodec) { self.zlib = zlib }

    /// The block of each of `parts`, in order.
    mutating func encode(_ parts: [ArraySlice<Sample>]) throws -> [[UInt8]] {
        let samples = parts.reduce(0) { $0 + $1.count }
        guard parts.count > 1, samples >= Self.parallelSamples else {
            return try parts.map { try BlockCodec.encode($0, zlib: zlib) }
        }
        while helpers.count < parts.count - 1 { helpers.append(ZlibCodec()) }
        let codecs = [zlib] + helpers
        return try ConcurrentWork.map(parts.count) {
            try BlockCodec.encode(parts[$0], zlib: codecs[$0])
        }
    }
}
