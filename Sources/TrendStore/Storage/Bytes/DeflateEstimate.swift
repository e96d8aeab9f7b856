import Foundation

/// What deflate makes of a segment of a block's payload, estimated without compressing it: how
/// a block chooses its column layouts (``ColumnLayout``, from byte histograms) and, for each
/// segment, how deflate looks for matches in it (``ZlibCodec/Strategy``).
///
/// Three ways of deflating are weighed:
/// - level 1 with matches: the segment's order-0 entropy `H` plus what the fast matcher codes
///   above it, measured on bytes of uniform, binary and geometric distributions: 0.7–0.9
///   bits a byte for `H` of 0.5 to 4.5 bits (it takes short matches that cost more than the
///   literals they replace), falling to nothing for nearly random bytes (`H` ≥ 6) and to
///   1.5 `H` for nearly constant ones, whose runs only matches shorten;
/// - Huffman codes alone (zlib's `Z_HUFFMAN_ONLY`): exactly the Huffman code of the
///   histogram, plus about 5 bits a symbol for the code's description. On noisy byte
///   planes (a watch's gap column, 0 seven times in ten and noisy otherwise) this is smaller
///   than level 1, and faster;
/// - runs (zlib's `Z_RLE`): the same codes, with each run of one byte value coded as a match
///   at distance 1, exactly as zlib parses it. On the random profile's data (measured with
///   zlib on the planes of its blocks) the top plane of the durations, which only their
///   outliers reach, is 37% smaller than by level 1 and 58% smaller than by Huffman codes
///   alone, and the second plane of the value deltas 8% smaller than by Huffman codes alone.
enum DeflateEstimate {
    /// A histogram of symbols: 256 counts of byte values (or 285 of deflate's literals and
    /// match lengths).
    typealias Histogram = ArraySlice<Int>

    /// The counts of each byte value in `bytes`.
    static func histogram(of bytes: UnsafeRawBufferPointer) -> [Int] {
        var counts = [Int](repeating: 0, count: 256)
        counts.withUnsafeMutableBufferPointer { counts in
            for byte in bytes { counts[Int(byte)] &+= 1 }
        }
        return counts
    }

    /// `payload` cut into segments of `lengths` (adding up to its length), each to be deflated
    /// the way estimated smallest for its bytes.
    static func segments(of payload: UnsafeRawBufferPointer, lengths: [Int]) -> [ZlibCodec.Segment]
    {
        var offset = 0
        return lengths.map { length in
            defer { offset += length }
            let segment = UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + length)])
            return ZlibCodec.Segment(length: length, strategy: strategy(for: segment))
        }
    }

    /// The estimated deflated size of `count` bytes of `histogram`, in bits: the smaller of
    /// level 1 and Huffman codes alone (a histogram does not show runs).
    static func bits(_ histogram: Histogram, count: Int) -> Double {
        min(levelOneBits(histogram, count: count), huffmanBits(histogram))
    }

    /// The way of deflating `bytes` estimated smallest. Runs when their exact size is below
    /// both other estimates and no pattern of two to eight bytes shows (a byte equals one two
    /// to eight before it a quarter more often than it equals the one before it, or than two
    /// bytes drawn from the histogram are equal): a pattern is what level 1's matches shorten
    /// and runs do not. Else Huffman codes alone when the histogram's code is below the
    /// level-1 estimate and the bytes repeat little more often than chance would (a byte
    /// equals one up to eight before it at most a quarter more often than two drawn from the
    /// histogram); else level 1. Repeats are counted at up to 256 positions spread over the
    /// bytes.
    static func strategy(for bytes: UnsafeRawBufferPointer) -> ZlibCodec.Strategy {
        guard bytes.count > maximumLag else { return .matches }
        let counts = histogram(of: bytes)
        let levelOne = levelOneBits(counts[...], count: bytes.count)
        let huffman = huffmanBits(counts[...])
        let runs = runsBits(bytes, histogram: counts[...], huffman: huffman)
        guard min(huffman, runs) < levelOne else { return .matches }
        let (previous, farther) = equalRates(bytes)
        let total = Double(bytes.count)
        let chance = counts.reduce(0.0) { $0 + Double($1) * Double($1) } / (total * total)
        // Runs make a byte equal to the few before it about as often as to the one before;
        // a pattern, more often to one further back.
        if runs < huffman, farther <= max(chance, previous) + 0.25 { return .runs }
        if huffman < levelOne, max(previous, farther) <= chance + 0.25 { return .huffmanOnly }
        return .matches
    }

    /// How often a byte of `bytes` equals the one before it, and the one two to eight before
    /// it (the most of those seven), counted at up to 256 positions spread over the bytes.
    private static func equalRates(_ bytes: UnsafeRawBufferPointer) -> (
        previous: Double, farther: Double
    ) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: maximumLag + 1) { equal in
            equal.initialize(repeating: 0)
            let step = max(1, (bytes.count - maximumLag) / 256)
            var positions = 0
            var index = maximumLag
            while index < bytes.count {
                let byte = bytes[index]
                for lag in 1...maximumLag where bytes[index &- lag] == byte { equal[lag] &+= 1 }
                positions &+= 1
                index &+= step
            }
            let count = Double(max(positions, 1))
            return (Double(equal[1]) / count, Double(equal[2...].max() ?? 0) / count)
        }
    }

    /// The size of `bytes` deflated by runs (`Z_RLE`), in bits, given their `histogram`
    /// and their size by Huffman codes alone: zlib's parse (a byte that the next three
    /// repeat, after one equal to it, begins a match of the whole run, up to 258 bytes), the
    /// Huffman code of its literals, match lengths and end of block, the lengths' extra bits,
    /// a bit for each match's distance and the codes' description.
    static func runsBits(
        _ bytes: UnsafeRawBufferPointer, histogram: Histogram, huffman: Double
    ) -> Double {
        let count = bytes.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 256 + 29) { symbols in
            // The literals are the bytes less those the matches cover.
            symbols.initialize(repeating: 0)
            for (value, frequency) in zip(0..<256, histogram) { symbols[value] = frequency }
            var extraBits = 0
            var matches = 0
            var index = 1
            while index + 2 < count {
                let byte = bytes[index]
                guard bytes[index &- 1] == byte, bytes[index &+ 1] == byte,
                    bytes[index &+ 2] == byte
                else {
                    index &+= 1
                    continue
                }
                var length = 3
                while length < 258, index &+ length < count, bytes[index &+ length] == byte {
                    length &+= 1
                }
                let (code, extra) = lengthCode(length)
                symbols[Int(byte)] &-= length
                symbols[256 &+ code] &+= 1
                extraBits &+= extra
                matches &+= 1
                index &+= length
            }
            // No run: the very stream of Huffman codes alone.
            guard matches > 0 else { return huffman }
            return huffmanBits(ArraySlice(symbols)) + Double(extraBits + matches + 10)
        }
    }

    /// Deflate's length code (0…28, for symbols 257…285) and extra bits of a match of
    /// `length` bytes (3…258).
    private static func lengthCode(_ length: Int) -> (code: Int, extra: Int) {
        if length < 11 { return (length - 3, 0) }
        if length == 258 { return (28, 0) }
        // Codes 8… come in groups of four per count of extra bits (1…5), each twice as wide.
        let extra = Int.bitWidth - (length - 3).leadingZeroBitCount - 3
        return (4 * extra + ((length - 3) >> extra), extra)
    }

    /// The longest pattern ``strategy(for:)`` looks for.
    private static let maximumLag = 8

    /// The estimated size of `count` bytes deflated at level 1, in bits.
    private static func levelOneBits(_ histogram: Histogram, count: Int) -> Double {
        guard count > 0 else { return 0 }
        let total = Double(count)
        var bits = 0.0
        for frequency in histogram where frequency > 0 {
            bits -= Double(frequency) * log2(Double(frequency) / total)
        }
        let perByte = bits / total
        let overhead =
            perByte < 0.5 ? 1.5 * perByte : 0.8 * min(1, max(0, (6.2 - perByte) / 1.7))
        return bits + overhead * total
    }

    /// The size of the histogram's symbols (bytes, or the literals and match lengths of
    /// ``runsBits(_:histogram:huffman:)``) in their Huffman code plus the code's
    /// description, in bits. Deflate's code also holds the block's end, a symbol of weight 1:
    /// two byte values make a code of three symbols, not a bit each. A Huffman code's total length
    /// is the sum of the weights of the nodes its construction merges; with the weights
    /// sorted (a radix sort, a byte of the weights a pass) the merged nodes come out in
    /// order, so two queues find each smallest pair. All on the stack: this runs for every
    /// plane of every candidate coding of every block.
    private static func huffmanBits(_ histogram: Histogram) -> Double {
        // Up to 285 symbols of a literal/length alphabet, and the end of the block.
        let capacity = 286
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * capacity + 256) { space in
            var leaves = UnsafeMutableBufferPointer(rebasing: space[0..<capacity])
            var spare = UnsafeMutableBufferPointer(rebasing: space[capacity..<(2 * capacity)])
            let merged = UnsafeMutableBufferPointer(
                rebasing: space[(2 * capacity)..<(3 * capacity)])
            let buckets = UnsafeMutableBufferPointer(
                rebasing: space[(3 * capacity)..<(3 * capacity + 256)])
            var count = 1
            leaves[0] = 1
            var largest = 1
            for frequency in histogram where frequency > 0 && count < capacity {
                leaves[count] = frequency
                largest = max(largest, frequency)
                count += 1
            }
            var shift = 0
            while largest >> shift > 0 {
                buckets.update(repeating: 0)
                for index in 0..<count { buckets[(leaves[index] >> shift) & 255] += 1 }
                var position = 0
                for digit in 0..<256 {
                    let size = buckets[digit]
                    buckets[digit] = position
                    position += size
                }
                for index in 0..<count {
                    let digit = (leaves[index] >> shift) & 255
                    spare[buckets[digit]] = leaves[index]
                    buckets[digit] += 1
                }
                swap(&leaves, &spare)
                shift += 8
            }
            var leaf = 0
            var node = 0
            var made = 0
            var total = 0
            func smallest() -> Int {
                if node < made, leaf == count || merged[node] < leaves[leaf] {
                    node += 1
                    return merged[node - 1]
                }
                leaf += 1
                return leaves[leaf - 1]
            }
            for _ in 1..<count {
                let weight = smallest() + smallest()
                total += weight
                merged[made] = weight
                made += 1
            }
            return Double(total + 5 * count)
        }
    }
}
