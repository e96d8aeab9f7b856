import CZlibSystem

/// zlib's deflate and inflate, with a stream reused across calls to avoid re-allocating its state.
///
/// Not thread-safe: each writer or reader keeps its own.
///
/// @unchecked: each instance is used by one thread at a time (the writer mutex, or one query).
final class ZlibCodec: @unchecked Sendable {
    /// A zlib failure, with zlib's return code.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "zlib \(operation) failed (\(code))" }
    }

    /// The most bytes inflate makes of one compressed byte (a 258-byte match coded in about
    /// a bit): a stream said to inflate to more than this many times its size is damaged.
    static let maximumExpansion = 1_032

    private var deflater: UnsafeMutablePointer<z_stream>?
    private var inflater: UnsafeMutablePointer<z_stream>?
    /// The compression level, 1 (fastest) to 9 (smallest).
    let level: Int32

    init(level: Int32 = 1) { self.level = level }

    deinit {
        if let deflater {
            deflateEnd(deflater)
            deflater.deallocate()
        }
        if let inflater {
            inflateEnd(inflater)
            inflater.deallocate()
        }
    }

    /// A segment of the input that ends a deflate block, so it gets Huffman codes of its own.
    struct Segment: Equatable {
        /// Its length in bytes.
        var length: Int
        /// How deflate looks for matches in it (``DeflateEstimate/strategy(for:)``).
        var strategy = Strategy.matches
    }

    /// How deflate codes a segment's bytes. Any inflate reads each.
    enum Strategy: Equatable {
        /// Matches found by the stream's level (1: zlib's fast matcher), then Huffman codes.
        case matches
        /// Huffman codes of the bytes alone, no matches (`Z_HUFFMAN_ONLY`): smaller and
        /// faster for noisy bytes.
        case huffmanOnly
        /// Huffman codes of the bytes, with each run of one byte value as a match at
        /// distance 1 and no search for others (`Z_RLE`): smaller for noisy bytes among
        /// long runs, such as a plane that is 0 but for rare outliers.
        case runs

        /// zlib's name for it.
        fileprivate var zlibStrategy: Int32 {
            switch self {
            case .matches: Z_DEFAULT_STRATEGY
            case .huffmanOnly: Z_HUFFMAN_ONLY
            case .runs: Z_RLE
            }
        }
    }

    /// Appends the deflated form of `input` to `output`, as one zlib stream.
    ///
    /// Each of `segments` (lengths adding up to `input.count`; the whole input, with
    /// matches, when empty) ends a deflate block, so each gets Huffman codes of its own:
    /// the byte planes of a block's columns differ far more from each other than within
    /// themselves. Any inflate reads the stream, whichever way each block was made.
    func deflate(
        _ input: UnsafeRawBufferPointer, segments: [Segment] = [],
        appendingTo output: inout [UInt8]
    ) throws(Failure) {
        let stream = try deflateStream()
        // Room besides the bound of one stream for each segment's block: a stored block of it
        // (what deflate falls back to) costs 5 bytes more than its bytes.
        let bound = Int(deflateBound(stream, uLong(input.count))) + 64 * segments.count
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: bound))
        var strategy = Strategy.matches
        let code: Int32 = output.withUnsafeMutableBytes { out in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.next_out = out.baseAddress!.advanced(by: start).assumingMemoryBound(
                to: Bytef.self)
            stream.pointee.avail_out = uInt(bound)
            var fed = 0
            for (index, segment) in segments.enumerated() where segment.length > 0 {
                // Between blocks (all input so far consumed), as zlib asks.
                if segment.strategy != strategy {
                    strategy = segment.strategy
                    let code = deflateParams(stream, level, strategy.zlibStrategy)
                    guard code == Z_OK else { return code }
                }
                guard index < segments.count - 1, fed + segment.length < input.count else { break }
                stream.pointee.avail_in = uInt(segment.length)
                fed += segment.length
                let code = CZlibSystem.deflate(stream, Z_BLOCK)
                guard code == Z_OK, stream.pointee.avail_in == 0 else {
                    return code == Z_OK ? Z_BUF_ERROR : code
                }
            }
            stream.pointee.avail_in = uInt(input.count - fed)
            return CZlibSystem.deflate(stream, Z_FINISH)
        }
        let produced = bound - Int(stream.pointee.avail_out)
        deflateReset(stream)
        // The next call begins with matches, as a stream fresh from deflateInit; a stream
        // that cannot be set back is dropped, and the next call makes another.
        if strategy != .matches, deflateParams(stream, level, Z_DEFAULT_STRATEGY) != Z_OK {
            deflateEnd(stream)
            stream.deallocate()
            deflater = nil
        }
        guard code == Z_STREAM_END else { throw Failure(operation: "deflate", code: code) }
        output.removeLast(bound - produced)
    }

    /// Inflates the zlib stream `input` into `output`, which must be exactly the
    /// uncompressed size.
    ///
    /// The stream's Adler-32 of the output is not computed again: every caller checks a
    /// checksum covering the whole stream first (a block's CRC-32), and the pass over the
    /// output cost a twentieth of a query that decodes every block. The header must still
    /// say deflate with at most a 32 KiB window and no preset dictionary, and the trailer's
    /// four bytes must follow the deflate data.
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(Failure)
    {
        guard input.count >= 6, Self.isZlibHeader(input[0], input[1]) else {
            throw Failure(operation: "inflate", code: Z_DATA_ERROR)
        }
        let stream = try inflateStream()
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: input.baseAddress?.advanced(by: 2).assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count - 2)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let code = CZlibSystem.inflate(stream, Z_FINISH)
        let leftOver = stream.pointee.avail_out
        let unread = stream.pointee.avail_in
        inflateReset(stream)
        guard code == Z_STREAM_END, leftOver == 0, unread >= 4 else {
            throw Failure(operation: "inflate", code: code == Z_STREAM_END ? Z_DATA_ERROR : code)
        }
    }

    /// Whether `cmf` and `flg` begin a zlib stream this inflater reads: deflate, a window
    /// of at most 32 KiB, no preset dictionary, and the header's check bits right (RFC 1950).
    private static func isZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0
            && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    private func deflateStream() throws(Failure) -> UnsafeMutablePointer<z_stream> {
        if let deflater { return deflater }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = trendstore_deflateInit(stream, level)
        guard code == Z_OK else {
            stream.deallocate()
            throw Failure(operation: "deflateInit", code: code)
        }
        deflater = stream
        return stream
    }

    private func inflateStream() throws(Failure) -> UnsafeMutablePointer<z_stream> {
        if let inflater { return inflater }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = trendstore_inflateInitRaw(stream)
        guard code == Z_OK else {
            stream.deallocate()
            throw Failure(operation: "inflateInit", code: code)
        }
        inflater = stream
        return stream
    }

    /// The CRC-32 of `bytes`, as zlib computes it; pass the CRC of what came before
    /// them as `previous` to checksum several pieces as one.
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        UInt32(
            CZlibSystem.crc32(
                uLong(previous), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self),
                uInt(bytes.count)))
    }
}
