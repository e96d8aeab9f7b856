/// How ``SeriesWriter`` sizes the blocks it writes: blocks of about
/// ``SampleStorage/targetBlockBytes``, full blocks left as they are, when a few appended
/// samples begin a tail block, and when a kept block coding is chosen again.
enum BlockSizing {
    /// How many of `remaining` samples the next block takes: even blocks of about the
    /// target size, a first guess of 4,096 samples when nothing says how well they pack.
    static func blockSampleCount(remaining: Int, bytesPerSample: Double?) -> Int {
        let capacity =
            bytesPerSample.map {
                Int(Double(SampleStorage.targetBlockBytes) / max($0, 1e-3))
            } ?? 4_096
        let limit = min(max(capacity, 64), SampleStorage.maximumBlockSamples)
        guard bytesPerSample != nil else { return min(remaining, limit) }
        let blocks = (remaining + limit - 1) / limit
        return (remaining + blocks - 1) / blocks
    }

    /// Whether a write that only appends after a block of `byteCount` bytes holding `count`
    /// samples leaves it as it is.
    static func isFull(byteCount: Int, count: Int) -> Bool {
        byteCount >= SampleStorage.targetBlockBytes * 7 / 8
            || count >= SampleStorage.maximumBlockSamples
    }

    /// The number of binary digits of `count`: equal for two counts within one doubling.
    static func magnitude(_ count: Int) -> Int { Int.bitWidth - count.leadingZeroBitCount }

    /// Whether the newest block, of `byteCount` bytes holding `count` samples, has grown past
    /// a tail's size: a few samples appended after it begin a tail block.
    static func isGrownTail(byteCount: Int, count: Int) -> Bool {
        byteCount >= SampleStorage.tailBlockBytes || count >= SampleStorage.tailBlockSamples
    }

    /// Whether `count` appended samples of about `bytesPerSample` bytes each are few enough
    /// to begin a tail block (half a tail's size at most).
    static func isSmallAppend(_ count: Int, bytesPerSample: Double) -> Bool {
        count <= SampleStorage.tailBlockSamples / 2
            && Double(count) * bytesPerSample <= Double(SampleStorage.tailBlockBytes / 2)
    }
}
