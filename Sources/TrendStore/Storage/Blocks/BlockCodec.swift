/// Encodes a sorted run of samples into one compressed, checksummed block (layout 2), and
/// back (layouts 1 and 2).
///
/// Header (layout 2: 76 bytes; layout 1, of stores of storage format 1: 72, without the
/// count at 68, its CRC-32 at 68), little-endian:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | block layout (2) |
/// | 1 | 1 | value scheme (``ValueCoding/Scheme``) |
/// | 2 | 1 | decimal exponent `e` |
/// | 3 | 1 | decimal factor `f` |
/// | 4 | 1 | duration column layout (``ColumnLayout/headerByte``) |
/// | 5 | 1 | gap column layout |
/// | 6 | 1 | value column layout |
/// | 7 | 1 | unit divisor (index into ``ValueCoding/conversionDivisors``) |
/// | 8 | 4 | sample count |
/// | 12 | 4 | exception count |
/// | 16 | 8 | smallest start (ms): the block's key |
/// | 24 | 8 | largest start (ms) |
/// | 32 | 8 | largest end (ms) |
/// | 40 | 8 | sum of the values, in sample order |
/// | 48 | 8 | duration reference (ms) |
/// | 56 | 8 | value reference (the smallest integer of a decimal-offsets column) |
/// | 64 | 4 | uncompressed payload length |
/// | 68 | 4 | gaps that are not 0 when the gap column is sparse, else 0 |
/// | 72 | 4 | CRC-32 of bytes 0…71 and the compressed payload |
/// | 76 | … | zlib-deflated payload |
///
/// The payload holds three columns of zig-zag integers, each in its layout: durations minus
/// the reference (a median of a few samples: ~0 for steady cadences); start gaps
/// (`start − previous end`, the first against the smallest start); the value column of
/// ``ValueCoding``; then each exception's position (4 bytes) and IEEE bits (8 bytes).
/// Each column is stored as byte planes or bit-packed (the gaps also sparse: layout 2),
/// whichever is estimated smaller after deflate (``ColumnLayout``).
/// Integer arithmetic wraps, so any Int64 times round-trip.
enum BlockCodec {
    /// The layout byte every block written begins with.
    static let version: UInt8 = 2
    /// The header size of the blocks written.
    static let headerSize = 76

    /// Where a block of `layout` (1 or 2) stores its CRC-32; its header ends 4 bytes after.
    static func checksumOffset(layout: UInt8) -> Int { layout == 1 ? 68 : 72 }

    /// What a block's header says, readable without inflating the payload.
    struct Header {
        /// The block's layout, 1 or 2.
        var layout: UInt8
        var count: Int
        var exceptionCount: Int
        var minimumStart: Int64
        var maximumStart: Int64
        var maximumEnd: Int64
        var valueSum: Double
        var durationReference: Int64
        var values: ValueCoding.Parameters
        var layouts: Layouts
        var checksum: UInt32

        /// How the three columns are stored.
        struct Layouts {
            var duration: ColumnLayout
            var gap: ColumnLayout
            var value: ColumnLayout
        }

        /// Where the gap, value and exception columns start in the payload.
        var gapOffset: Int { layouts.duration.byteCount(of: count) }
        var valueOffset: Int { gapOffset + layouts.gap.byteCount(of: count) }
        var exceptionOffset: Int { valueOffset + layouts.value.byteCount(of: count) }

        var payloadLength: Int { exceptionOffset + exceptionCount * 12 }

        /// The header's size in bytes: where the compressed payload starts.
        var size: Int { checksumOffset(layout: layout) + 4 }
    }

    /// Encodes `samples`, which must be sorted by `(start, end)` with unique identities, as a
    /// block.
    ///
    /// With `previous`, the header of the block these samples replace, its duration
    /// reference is kept, and its value parameters and column layouts too when they hold
    /// the samples (a sample appended to a block that already had a fitting choice), instead
    /// of being chosen again from estimates over every sample: what makes a one-sample
    /// commit's encoding cheap. Otherwise they are chosen as without it.
    ///
    /// Each column segment (a byte plane, a packed column) is its own deflate block, with
    /// Huffman codes of its own, deflated with matches or by Huffman codes alone, whichever is
    /// estimated smaller for its bytes (``DeflateEstimate``); `segmented: false` deflates the
    /// payload as one block, slightly larger but faster to write, for the small tail block a
    /// one-sample commit rewrites (folded, and segmented, once it grows).
    static func encode(
        _ samples: ArraySlice<Sample>, zlib: ZlibCodec, keeping previous: Header? = nil,
        segmented: Bool = true
    ) throws -> [UInt8] {
        guard !samples.isEmpty else {
            throw BlockDamage(reason: "a block holds at least one sample")
        }
        let count = samples.count
        let reference = previous?.durationReference ?? durationReference(samples)
        var durations = [UInt64](repeating: 0, count: count)
        var gaps = [UInt64](repeating: 0, count: count)
        var values = [Double](repeating: 0, count: count)
        var minimumStart = Int64.max
        var maximumStart = Int64.min
        var maximumEnd = Int64.min
        var valueSum = 0.0
        for sample in samples {
            minimumStart = min(minimumStart, sample.startMilliseconds)
            maximumStart = max(maximumStart, sample.startMilliseconds)
            maximumEnd = max(maximumEnd, sample.endMilliseconds)
            valueSum += sample.value
        }
        var previousEnd = minimumStart
        for (index, sample) in samples.enumerated() {
            durations[index] = ByteColumns.zigZag(
                (sample.endMilliseconds &- sample.startMilliseconds) &- reference)
            gaps[index] = ByteColumns.zigZag(sample.startMilliseconds &- previousEnd)
            previousEnd = sample.endMilliseconds
            values[index] = sample.value
        }
        let coded: ValueCoding.Encoded
        var layouts: Header.Layouts
        if let previous, previous.layouts.duration.holds(durations),
            previous.layouts.gap.holds(gaps),
            let kept = ValueCoding.encode(
                values, keeping: previous.values, layout: previous.layouts.value)
        {
            coded = kept
            layouts = previous.layouts
            layouts.gap = layouts.gap.fitted(to: gaps)
        } else {
            coded = ValueCoding.encode(values)
            layouts = Header.Layouts(
                duration: ColumnLayout.chosen(for: durations).layout,
                gap: ColumnLayout.chosen(for: gaps, allowsSparse: true).layout,
                value: coded.layout)
        }
        var payload = [UInt8]()
        payload.reserveCapacity(
            layouts.duration.byteCount(of: count) + layouts.gap.byteCount(of: count)
                + layouts.value.byteCount(of: count) + coded.exceptionPositions.count * 12)
        layouts.duration.append(durations, to: &payload)
        layouts.gap.append(gaps, to: &payload)
        layouts.value.append(coded.column, to: &payload)
        var exceptions = ByteWriter(capacity: coded.exceptionPositions.count * 12)
        for position in coded.exceptionPositions { exceptions.appendLittleEndian(position) }
        for bits in coded.exceptionBits { exceptions.appendLittleEndian(bits) }
        payload.append(contentsOf: exceptions.bytes)

        var block = ByteWriter(capacity: headerSize + payload.count / 2)
        block.append(version)
        block.append(coded.parameters.scheme.rawValue)
        block.append(coded.parameters.exponent)
        block.append(coded.parameters.factor)
        block.append(layouts.duration.headerByte)
        block.append(layouts.gap.headerByte)
        block.append(layouts.value.headerByte)
        block.append(coded.parameters.divisor)
        block.appendLittleEndian(UInt32(count))
        block.appendLittleEndian(UInt32(coded.exceptionPositions.count))
        block.appendLittleEndian(minimumStart)
        block.appendLittleEndian(maximumStart)
        block.appendLittleEndian(maximumEnd)
        block.appendDouble(valueSum)
        block.appendLittleEndian(reference)
        block.appendLittleEndian(coded.parameters.reference)
        block.appendLittleEndian(UInt32(payload.count))
        block.appendLittleEndian(UInt32(layouts.gap.nonzero))
        block.appendLittleEndian(UInt32(0))  // checksum, filled in below
        var bytes = block.bytes
        let lengths =
            layouts.duration.segments(of: count) + layouts.gap.segments(of: count)
            + layouts.value.segments(of: count) + [exceptions.bytes.count]
        try payload.withUnsafeBytes {
            let segments = segmented ? DeflateEstimate.segments(of: $0, lengths: lengths) : []
            try zlib.deflate($0, segments: segments, appendingTo: &bytes)
        }
        let checksum = bytes.withUnsafeBytes(checksum(of:))
        let at = checksumOffset(layout: version)
        withUnsafeBytes(of: checksum.littleEndian) {
            bytes.replaceSubrange(at..<(at + 4), with: $0)
        }
        return bytes
    }

    /// The CRC-32 of a block's header bytes before its checksum and its compressed payload,
    /// for the layout its first byte states; the caller has checked that the header is there.
    static func checksum(of block: UnsafeRawBufferPointer) -> UInt32 {
        let at = checksumOffset(layout: block[0])
        let header = ZlibCodec.crc32(UnsafeRawBufferPointer(rebasing: block[..<at]))
        return ZlibCodec.crc32(
            UnsafeRawBufferPointer(rebasing: block[(at + 4)...]), continuing: header)
    }

    /// Reads the header of an encoded block without touching the payload.
    static func header(_ bytes: UnsafeRawBufferPointer) throws(BlockDamage) -> Header {
        guard let layout = bytes.first, layout == 1 || layout == 2 else {
            throw BlockDamage(reason: "unknown block layout \(bytes.first.map(String.init) ?? "")")
        }
        let size = checksumOffset(layout: layout) + 4
        guard bytes.count >= size else {
            throw BlockDamage(reason: "\(bytes.count) bytes is shorter than a block header")
        }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            bytes.littleEndian(at: offset, as: T.self)
        }
        guard let scheme = ValueCoding.Scheme(rawValue: bytes[1]) else {
            throw BlockDamage(reason: "unknown value scheme \(bytes[1])")
        }
        let values = ValueCoding.Parameters(
            scheme: scheme, exponent: bytes[2], factor: bytes[3], divisor: bytes[7],
            reference: load(56, Int64.self))
        guard ValueCoding.isValid(values) else {
            throw BlockDamage(reason: "invalid value parameters")
        }
        let count = Int(load(8, UInt32.self))
        let nonzeroGaps = layout == 1 ? 0 : Int(load(68, UInt32.self))
        // Only layout 2's gap column may be sparse, with at most `count` gaps not 0.
        guard let duration = ColumnLayout(headerByte: bytes[4]),
            let gap = ColumnLayout(headerByte: bytes[5], nonzero: nonzeroGaps),
            let value = ColumnLayout(headerByte: bytes[6]),
            !duration.isSparse, !value.isSparse, !gap.isSparse || layout == 2,
            gap.isSparse || nonzeroGaps == 0, nonzeroGaps <= count
        else { throw BlockDamage(reason: "invalid column layouts") }
        let header = Header(
            layout: layout, count: count, exceptionCount: Int(load(12, UInt32.self)),
            minimumStart: load(16, Int64.self), maximumStart: load(24, Int64.self),
            maximumEnd: load(32, Int64.self), valueSum: Double(bitPattern: load(40, UInt64.self)),
            durationReference: load(48, Int64.self), values: values,
            layouts: Header.Layouts(duration: duration, gap: gap, value: value),
            checksum: load(size - 4, UInt32.self))
        let storedLength = Int(load(64, UInt32.self))
        guard header.count > 0, header.exceptionCount <= header.count,
            storedLength == header.payloadLength
        else {
            throw BlockDamage(
                reason: "header claims \(header.count) samples in \(storedLength) payload bytes")
        }
        // Refused before inflating: it would first allocate for nothing.
        guard storedLength <= (bytes.count - size) * ZlibCodec.maximumExpansion else {
            throw BlockDamage(
                reason: "\(bytes.count - size) compressed bytes cannot inflate to \(storedLength)")
        }
        return header
    }

    /// Decodes a block, checking its checksum, and appends its samples to `samples`.
    ///
    /// - Throws: ``BlockDamage`` when the checksum, the compressed stream, an exception
    ///   position or the header's totals disagree; nothing is appended then.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, zlib: ZlibCodec, appendingTo samples: inout [Sample]
    ) throws(BlockDamage) {
        try decode(bytes, header: header(bytes), zlib: zlib, appendingTo: &samples)
    }

    /// Decodes a block whose header the caller has read (``header(_:)`` of the same bytes),
    /// as ``decode(_:zlib:appendingTo:)`` does.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, header: Header, zlib: ZlibCodec,
        appendingTo samples: inout [Sample]
    ) throws(BlockDamage) {
        guard checksum(of: bytes) == header.checksum else {
            throw BlockDamage(reason: "block checksum mismatch")
        }
        let payload = UnsafeMutableRawBufferPointer.allocate(
            byteCount: header.payloadLength, alignment: 8)
        defer { payload.deallocate() }
        do {
            try zlib.inflate(UnsafeRawBufferPointer(rebasing: bytes[header.size...]), into: payload)
        } catch {
            throw BlockDamage(reason: "\(error)")
        }
        let count = header.count
        let base = UnsafeRawBufferPointer(payload)
        let exceptionOffset = header.exceptionOffset
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: count)
        defer { values.deallocate() }
        // Each column unpacked whole, then combined.
        let first = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: count)
        let second = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: count)
        defer {
            first.deallocate()
            second.deallocate()
        }
        // Planes and packed columns always unpack; a sparse gap column checks its bitmap.
        _ = ColumnReader(
            payload: base, offset: header.valueOffset, count: count, layout: header.layouts.value
        ).unpack(into: first)
        ValueCoding.decode(header.values, count: count, column: { first[$0] }, into: values)
        let bitsOffset = exceptionOffset + header.exceptionCount * 4
        var lastPosition = -1
        for exception in 0..<header.exceptionCount {
            let position = Int(
                base.littleEndian(at: exceptionOffset + exception * 4, as: UInt32.self))
            guard position > lastPosition, position < count else {
                throw BlockDamage(reason: "invalid exception position \(position)")
            }
            lastPosition = position
            values[position] = Double(
                bitPattern: base.littleEndian(at: bitsOffset + exception * 8, as: UInt64.self))
        }

        var valueSum = 0.0
        var maximumEnd = Int64.min
        var maximumStart = Int64.min
        _ = ColumnReader(payload: base, offset: 0, count: count, layout: header.layouts.duration)
            .unpack(into: first)
        guard
            ColumnReader(
                payload: base, offset: header.gapOffset, count: count, layout: header.layouts.gap
            ).unpack(into: second)
        else { throw BlockDamage(reason: "the gap bitmap disagrees with the header's count") }
        let decoded = [Sample](unsafeUninitializedCapacity: count) { out, initialized in
            ByteColumns.forEachSpan(
                count: count, durations: UnsafeBufferPointer(first),
                gaps: UnsafeBufferPointer(second),
                durationReference: header.durationReference, firstStart: header.minimumStart
            ) { index, start, end in
                let value = values[index]
                out.initializeElement(
                    at: index,
                    to: Sample(startMilliseconds: start, endMilliseconds: end, value: value))
                valueSum += value
                maximumEnd = max(maximumEnd, end)
                maximumStart = max(maximumStart, start)
            }
            initialized = count
        }
        guard valueSum.bitPattern == header.valueSum.bitPattern, maximumEnd == header.maximumEnd,
            maximumStart == header.maximumStart
        else {
            throw BlockDamage(reason: "decoded samples disagree with the header's totals")
        }
        if samples.isEmpty { samples = decoded } else { samples.append(contentsOf: decoded) }
    }

    /// A median of up to 15 evenly spaced durations: robust to a few long samples, cheap to find.
    private static func durationReference(_ samples: ArraySlice<Sample>) -> Int64 {
        let step = max(1, samples.count / 15)
        let picked = stride(from: samples.startIndex, to: samples.endIndex, by: step)
            .map { samples[$0].endMilliseconds &- samples[$0].startMilliseconds }.sorted()
        return picked[picked.count / 2]
    }
}

/// Thrown when a stored block cannot be read: its checksum, header or payload is not what
/// a writer of layout 1 or 2 leaves.
struct BlockDamage: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
