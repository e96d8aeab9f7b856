import Foundation

/// What deflate makes of a part of a block's payload, estimated from the part's byte
/// histogram without compressing it: how a block chooses its column layouts
/// (``ColumnLayout``) and, for each part, whether deflate looks for matches at all
/// (``ZlibCodec/Segment``).
///
/// Two ways of deflating are weighed:
/// - level 1 with matches: the part's order-0 entropy `H` plus what the fast matcher codes
///   above it, measured on bytes of uniform, binary and geometric distributions: 0.7–0.9
///   bits a byte for `H` of 0.5 to 4.5 bits (it takes short matches that cost more than the
///   literals they replace), falling to nothing for nearly random bytes (`H` ≥ 6) and to
///   1.5 `H` for nearly constant ones, whose runs only matches shorten;
/// - Huffman codes alone (zlib's `Z_HUFFMAN_ONLY`): exactly the Huffman code of the
///   histogram, plus about 5 bits a symbol for the code's description. On the noisy byte
///   planes of watch data this is smaller than level 1, and faster: a plane that is 0 seven
///   times in ten and noisy otherwise, 906 bytes per 3,000 against 1,237; a watch's gap
///   column as planes 22% smaller, its durations 5%.
enum DeflateEstimate {
    /// A byte histogram: 256 counts.
    typealias Histogram = ArraySlice<Int>

    /// The counts of each byte value in `bytes`.
    static func histogram(of bytes: UnsafeRawBufferPointer) -> [Int] {
        var counts = [Int](repeating: 0, count: 256)
        counts.withUnsafeMutableBufferPointer { counts in
            for byte in bytes { counts[Int(byte)] &+= 1 }
        }
        return counts
    }

    /// `payload` cut into parts of `lengths` (adding up to its length), each to be deflated
    /// the way estimated smaller for its bytes.
    static func segments(of payload: UnsafeRawBufferPointer, lengths: [Int]) -> [ZlibCodec.Segment]
    {
        var offset = 0
        return lengths.map { length in
            defer { offset += length }
            let part = UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + length)])
            return ZlibCodec.Segment(length: length, huffmanOnly: prefersHuffmanOnly(part))
        }
    }

    /// The estimated deflated size of `count` bytes of `histogram`, in bits: the smaller of
    /// the two ways.
    static func bits(_ histogram: Histogram, count: Int) -> Double {
        min(levelOneBits(histogram, count: count), huffmanBits(histogram))
    }

    /// Whether Huffman codes alone are estimated smaller than level 1 for `bytes`: their
    /// histogram says so, and they repeat themselves little more often than chance would (a
    /// run, or a pattern of up to eight bytes, is what matches shorten and a histogram does
    /// not see): a byte equals one up to eight before it at most a quarter more often than
    /// two bytes drawn from the histogram are equal, counted at up to 1,024 positions spread
    /// over the bytes.
    static func prefersHuffmanOnly(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let counts = histogram(of: bytes)
        guard huffmanBits(counts[...]) < levelOneBits(counts[...], count: bytes.count),
            bytes.count > maximumLag
        else { return false }
        let total = Double(bytes.count)
        let chance = counts.reduce(0.0) { $0 + Double($1) * Double($1) } / (total * total)
        let step = max(1, (bytes.count - maximumLag) / 1_024)
        var equal = [Int](repeating: 0, count: maximumLag + 1)
        var positions = 0
        equal.withUnsafeMutableBufferPointer { equal in
            for index in stride(from: maximumLag, to: bytes.count, by: step) {
                let byte = bytes[index]
                for lag in 1...maximumLag where bytes[index &- lag] == byte { equal[lag] &+= 1 }
                positions &+= 1
            }
        }
        let repeats = Double(equal.max() ?? 0) / Double(positions)
        return repeats <= chance + 0.25
    }

    /// The longest pattern ``prefersHuffmanOnly(_:)`` looks for.
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

    /// The size of the histogram's bytes in its Huffman code plus the code's description,
    /// in bits. Deflate's code also holds the block's end, a symbol of weight 1: two byte
    /// values make a code of three symbols, not a bit each. A Huffman code's total length
    /// is the sum of the weights of the nodes its construction merges; with the weights
    /// sorted (a radix sort, a byte of the weights a pass) the merged nodes come out in
    /// order, so two queues find each smallest pair. All on the stack: this runs for every
    /// plane of every candidate coding of every block.
    private static func huffmanBits(_ histogram: Histogram) -> Double {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 257 + 256) { space in
            var leaves = UnsafeMutableBufferPointer(rebasing: space[0..<257])
            var spare = UnsafeMutableBufferPointer(rebasing: space[257..<514])
            let merged = UnsafeMutableBufferPointer(rebasing: space[514..<771])
            let buckets = UnsafeMutableBufferPointer(rebasing: space[771..<1_027])
            var count = 1
            leaves[0] = 1
            var largest = 1
            for frequency in histogram where frequency > 0 && count < 257 {
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
