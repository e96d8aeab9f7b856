/// Encodes the blocks of a write on as many threads as it has blocks, up to
/// ``ConcurrentWork/width``: choosing each block's coding and deflating it are most of a bulk
/// write's work, and each block depends on nothing but its samples. The blocks come back in
/// the order of their samples, each the bytes ``BlockCodec/encode(_:zlib:keeping:segmented:)``
/// gives.
///
/// Blocks of fewer than ``parallelSamples`` samples in all are encoded on the caller's thread:
/// a one-sample commit never leaves it.
struct BlockEncoder: ~Copyable {
    /// The codec of the write transaction's thread.
    let zlib: ZlibCodec
    /// One codec per extra thread, made on first use.
    private var helpers: [ZlibCodec] = []

    /// The most blocks a writer plans from one estimate of their bytes per sample and hands
    /// here at once: four, whatever the cores, so a write leaves the same blocks on every
    /// machine.
    static let blocksPerRound = 4
    /// The fewest samples worth handing to other threads.
    static let parallelSamples = 2_048

    /// An encoder whose first thread uses `zlib`.
    init(zlib: ZlibCodec) { self.zlib = zlib }

    /// The block of each of `slices` (the samples of one block each), in order.
    mutating func encode(_ slices: [ArraySlice<Sample>]) throws -> [[UInt8]] {
        let samples = slices.reduce(0) { $0 + $1.count }
        guard slices.count > 1, samples >= Self.parallelSamples else {
            return try slices.map { try BlockCodec.encode($0, zlib: zlib) }
        }
        while helpers.count < slices.count - 1 { helpers.append(ZlibCodec()) }
        let codecs = [zlib] + helpers
        return try ConcurrentWork.map(slices.count) {
            try BlockCodec.encode(slices[$0], zlib: codecs[$0])
        }
    }
}
