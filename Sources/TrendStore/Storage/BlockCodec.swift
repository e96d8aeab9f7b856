/// Encodes a sorted run of samples into one compressed, checksummed block (format 2), and back.
///
/// Header (72 bytes, little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | format version (2) |
/// | 1 | 1 | value scheme (``ValueCoding/Scheme``) |
/// | 2 | 1 | decimal exponent `e` |
/// | 3 | 1 | decimal factor `f` |
/// | 4 | 1 | duration column width in bytes (1…8) |
/// | 5 | 1 | gap column width |
/// | 6 | 1 | value column width |
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
/// | 68 | 4 | CRC-32 of bytes 0…67 and the compressed payload |
/// | 72 | … | zlib-deflated payload |
///
/// The payload holds, as byte planes of zig-zag integers (``ByteColumns``): durations
/// minus the reference (a median of a few samples: ~0 for steady cadences); start gaps
/// (`start − previous end`, the first against the smallest start); the value column of
/// ``ValueCoding``; then each exception's position (4 bytes) and IEEE bits (8 bytes).
/// Integer arithmetic wraps, so any Int64 times round-trip.
enum BlockCodec {
    static let formatVersion: UInt8 = 2
    static let headerSize = 72

    /// What a block's header says, readable without inflating the payload.
    struct Header {
        var count: Int
        var exceptionCount: Int
        var minimumStart: Int64
        var maximumStart: Int64
        var maximumEnd: Int64
        var valueSum: Double
        var durationReference: Int64
        var values: ValueCoding.Parameters
        var widths: Widths
        var checksum: UInt32

        /// Bytes per sample of the three columns.
        struct Widths {
            var duration: Int
            var gap: Int
            var value: Int
        }

        var payloadLength: Int {
            count * (widths.duration + widths.gap + widths.value) + exceptionCount * 12
        }
    }

    /// Encodes `samples`, which must be sorted by `(start, end)` with unique identities.
    static func encode(_ samples: ArraySlice<Sample>, zlib: ZlibCodec) throws -> [UInt8] {
        guard !samples.isEmpty else {
            throw ChunkDamage(reason: "a block holds at least one sample")
        }
        let count = samples.count
        let reference = durationReference(samples)
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
        let coded = ValueCoding.encode(values)
        let widths = Header.Widths(
            duration: ByteColumns.width(of: durations), gap: ByteColumns.width(of: gaps),
            value: ByteColumns.width(of: coded.column))
        var payload = [UInt8]()
        payload.reserveCapacity(
            count * (widths.duration + widths.gap + widths.value)
                + coded.exceptionPositions.count * 12)
        ByteColumns.appendPlanes(durations, width: widths.duration, to: &payload)
        ByteColumns.appendPlanes(gaps, width: widths.gap, to: &payload)
        ByteColumns.appendPlanes(coded.column, width: widths.value, to: &payload)
        var exceptions = ByteWriter(capacity: coded.exceptionPositions.count * 12)
        for position in coded.exceptionPositions { exceptions.appendLittleEndian(position) }
        for bits in coded.exceptionBits { exceptions.appendLittleEndian(bits) }
        payload.append(contentsOf: exceptions.bytes)

        var block = ByteWriter(capacity: headerSize + payload.count / 2)
        block.append(formatVersion)
        block.append(coded.parameters.scheme.rawValue)
        block.append(coded.parameters.exponent)
        block.append(coded.parameters.factor)
        block.append(UInt8(widths.duration))
        block.append(UInt8(widths.gap))
        block.append(UInt8(widths.value))
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
        block.appendLittleEndian(UInt32(0))  // checksum, filled in below
        var bytes = block.bytes
        try payload.withUnsafeBytes { try zlib.deflate($0, appendingTo: &bytes) }
        let checksum = bytes.withUnsafeBytes(checksum(of:))
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(68..<72, with: $0) }
        return bytes
    }

    /// The CRC-32 of a block's first 68 header bytes and its compressed payload.
    private static func checksum(of block: UnsafeRawBufferPointer) -> UInt32 {
        let header = ZlibCodec.crc32(UnsafeRawBufferPointer(rebasing: block[..<68]))
        return ZlibCodec.crc32(
            UnsafeRawBufferPointer(rebasing: block[headerSize...]), continuing: header)
    }

    /// Reads the header of an encoded block without touching the payload.
    static func header(_ bytes: UnsafeRawBufferPointer) throws(ChunkDamage) -> Header {
        guard bytes.count >= headerSize else {
            throw ChunkDamage(reason: "\(bytes.count) bytes is shorter than a block header")
        }
        guard bytes[0] == formatVersion else {
            throw ChunkDamage(reason: "unknown block format version \(bytes[0])")
        }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard let scheme = ValueCoding.Scheme(rawValue: bytes[1]) else {
            throw ChunkDamage(reason: "unknown value scheme \(bytes[1])")
        }
        let values = ValueCoding.Parameters(
            scheme: scheme, exponent: bytes[2], factor: bytes[3], divisor: bytes[7],
            reference: load(56, Int64.self))
        guard ValueCoding.isValid(values) else {
            throw ChunkDamage(reason: "invalid value parameters")
        }
        let widths = Header.Widths(
            duration: Int(bytes[4]), gap: Int(bytes[5]), value: Int(bytes[6]))
        guard (1...8).contains(widths.duration), (1...8).contains(widths.gap),
            (1...8).contains(widths.value)
        else { throw ChunkDamage(reason: "invalid column widths") }
        let header = Header(
            count: Int(load(8, UInt32.self)), exceptionCount: Int(load(12, UInt32.self)),
            minimumStart: load(16, Int64.self), maximumStart: load(24, Int64.self),
            maximumEnd: load(32, Int64.self), valueSum: Double(bitPattern: load(40, UInt64.self)),
            durationReference: load(48, Int64.self), values: values, widths: widths,
            checksum: load(68, UInt32.self))
        let storedLength = Int(load(64, UInt32.self))
        guard header.count > 0, header.exceptionCount <= header.count,
            storedLength == header.payloadLength
        else {
            throw ChunkDamage(
                reason: "header claims \(header.count) samples in \(storedLength) payload bytes")
        }
        return header
    }

    /// Decodes a block, checking its checksum, and appends its samples to `samples`.
    ///
    /// - Throws: ``ChunkDamage`` when the checksum, the compressed stream, an exception
    ///   position or the header's totals disagree; nothing is appended then.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, zlib: ZlibCodec, appendingTo samples: inout [Sample]
    ) throws(ChunkDamage) {
        let header = try header(bytes)
        guard checksum(of: bytes) == header.checksum else {
            throw ChunkDamage(reason: "block checksum mismatch")
        }
        let payload = UnsafeMutableRawBufferPointer.allocate(
            byteCount: header.payloadLength, alignment: 8)
        defer { payload.deallocate() }
        do {
            try zlib.inflate(UnsafeRawBufferPointer(rebasing: bytes[headerSize...]), into: payload)
        } catch {
            throw ChunkDamage(reason: "\(error)")
        }
        let count = header.count
        let base = UnsafeRawBufferPointer(payload)
        let valueOffset = count * (header.widths.duration + header.widths.gap)
        let exceptionOffset = valueOffset + count * header.widths.value
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: count)
        defer { values.deallocate() }
        let valueWidth = header.widths.value
        ValueCoding.decode(
            header.values, count: count,
            column: {
                ByteColumns.plane(base, valueOffset, count, valueWidth, $0)
            }, into: values)
        let bitsOffset = exceptionOffset + header.exceptionCount * 4
        var lastPosition = -1
        for exception in 0..<header.exceptionCount {
            let position = Int(
                UInt32(
                    littleEndian: base.loadUnaligned(
                        fromByteOffset: exceptionOffset + exception * 4, as: UInt32.self)))
            guard position > lastPosition, position < count else {
                throw ChunkDamage(reason: "invalid exception position \(position)")
            }
            lastPosition = position
            values[position] = Double(
                bitPattern: UInt64(
                    littleEndian: base.loadUnaligned(
                        fromByteOffset: bitsOffset + exception * 8, as: UInt64.self)))
        }

        let firstNew = samples.count
        samples.append(
            contentsOf: repeatElement(
                Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0), count: count))
        var valueSum = 0.0
        var maximumEnd = Int64.min
        var maximumStart = Int64.min
        samples.withUnsafeMutableBufferPointer { buffer in
            let out = UnsafeMutableBufferPointer(rebasing: buffer[firstNew...])
            ByteColumns.forEachSpan(
                base, count: count, durationWidth: header.widths.duration,
                gapWidth: header.widths.gap, durationReference: header.durationReference,
                firstStart: header.minimumStart
            ) { index, start, end in
                let value = values[index]
                out[index] = Sample(startMilliseconds: start, endMilliseconds: end, value: value)
                valueSum += value
                maximumEnd = max(maximumEnd, end)
                maximumStart = max(maximumStart, start)
            }
        }
        guard valueSum.bitPattern == header.valueSum.bitPattern, maximumEnd == header.maximumEnd,
            maximumStart == header.maximumStart
        else {
            samples.removeSubrange(firstNew...)
            throw ChunkDamage(reason: "decoded samples disagree with the header's totals")
        }
    }

    /// A median of up to 15 evenly spaced durations: robust to a few long samples, cheap to find.
    private static func durationReference(_ samples: ArraySlice<Sample>) -> Int64 {
        let step = max(1, samples.count / 15)
        let picked = stride(from: samples.startIndex, to: samples.endIndex, by: step)
            .map { samples[$0].endMilliseconds &- samples[$0].startMilliseconds }.sorted()
        return picked[picked.count / 2]
    }
}

/// Why a stored block of samples (of either format) could not be read.
struct ChunkDamage: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
