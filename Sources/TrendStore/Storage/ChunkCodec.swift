/// Encodes a sorted run of samples into one compressed, checksummed block, and back.
///
/// Header (56 bytes, little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | format version (1) |
/// | 1 | 1 | value exponent `k` (values are integers ÷ 10^k), or 255 for raw IEEE bits |
/// | 2 | 1 | duration column width in bytes (1…8) |
/// | 3 | 1 | gap column width |
/// | 4 | 1 | value column width |
/// | 5 | 3 | reserved, zero |
/// | 8 | 4 | sample count |
/// | 12 | 4 | uncompressed payload length (= count × the three widths) |
/// | 16 | 8 | smallest start (ms) |
/// | 24 | 8 | largest end (ms) |
/// | 32 | 8 | sum of the values, in sample order |
/// | 40 | 8 | duration reference (ms) |
/// | 48 | 4 | CRC-32 of the compressed payload |
/// | 52 | 4 | reserved, zero |
/// | 56 | … | zlib-deflated payload |
///
/// The payload holds three columns of zig-zag integers, each as byte planes (every
/// sample's lowest byte, then every second byte, …), which zlib's entropy coder models
/// far better than interleaved bytes, and which decode without branches:
/// - durations minus the reference (a median of a few samples: ~0 for steady cadences);
/// - start gaps: `start − previous end`, the first against the smallest start (0 for contiguous samples);
/// - values: differences between consecutive scaled integers, or raw IEEE bits.
/// Integer arithmetic wraps, so any Int64 times round-trip.
enum ChunkCodec {
    static let formatVersion: UInt8 = 1
    static let headerSize = 56
    static let rawValuesMarker: UInt8 = 255

    /// What a chunk's header says, readable without inflating the payload.
    struct Header: Equatable {
        var count: Int
        var minimumStart: Int64
        var maximumEnd: Int64
        var valueSum: Double
        var durationReference: Int64
        var widths: (duration: Int, gap: Int, value: Int)
        var checksum: UInt32
        var valueExponent: UInt8

        var payloadLength: Int { count * (widths.duration + widths.gap + widths.value) }

        static func == (lhs: Header, rhs: Header) -> Bool {
            lhs.count == rhs.count && lhs.minimumStart == rhs.minimumStart
                && lhs.maximumEnd == rhs.maximumEnd
                && lhs.valueSum.bitPattern == rhs.valueSum.bitPattern
                && lhs.durationReference == rhs.durationReference
                && lhs.widths == rhs.widths && lhs.checksum == rhs.checksum
                && lhs.valueExponent == rhs.valueExponent
        }
    }

    /// Why a chunk could not be read.
    struct Damage: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Encodes `samples`, which must be sorted by `(start, end)` with unique identities.
    static func encode(_ samples: ArraySlice<Sample>, zlib: ZlibCodec) throws -> [UInt8] {
        guard !samples.isEmpty else { throw Damage(reason: "a chunk holds at least one sample") }
        let count = samples.count
        let scaling = DecimalScale.commonScaling(of: samples.lazy.map(\.value))
        let reference = durationReference(samples)
        var durations = [UInt64](repeating: 0, count: count)
        var gaps = [UInt64](repeating: 0, count: count)
        var values = [UInt64](repeating: 0, count: count)
        var minimumStart = Int64.max
        var maximumEnd = Int64.min
        var valueSum = 0.0
        for sample in samples {
            minimumStart = min(minimumStart, sample.startMilliseconds)
            maximumEnd = max(maximumEnd, sample.endMilliseconds)
            valueSum += sample.value
        }
        var previousEnd = minimumStart
        var previousScaled: Int64 = 0
        for (index, sample) in samples.enumerated() {
            durations[index] = zigZag(
                (sample.endMilliseconds - sample.startMilliseconds) &- reference)
            gaps[index] = zigZag(sample.startMilliseconds &- previousEnd)
            previousEnd = sample.endMilliseconds
            if let scaling {
                let scaled = scaling.integers[index]
                values[index] = zigZag(scaled &- previousScaled)
                previousScaled = scaled
            } else {
                values[index] = sample.value.bitPattern
            }
        }
        let widths = (width(of: durations), width(of: gaps), width(of: values))
        var payload = [UInt8]()
        payload.reserveCapacity(count * (widths.0 + widths.1 + widths.2))
        appendPlanes(durations, width: widths.0, to: &payload)
        appendPlanes(gaps, width: widths.1, to: &payload)
        appendPlanes(values, width: widths.2, to: &payload)

        var block = ByteWriter(capacity: headerSize + payload.count / 2)
        block.append(formatVersion)
        block.append(scaling.map { UInt8($0.exponent) } ?? rawValuesMarker)
        block.append(UInt8(widths.0))
        block.append(UInt8(widths.1))
        block.append(UInt8(widths.2))
        block.append(contentsOf: [0, 0, 0])
        block.appendLittleEndian(UInt32(count))
        block.appendLittleEndian(UInt32(payload.count))
        block.appendLittleEndian(minimumStart)
        block.appendLittleEndian(maximumEnd)
        block.appendDouble(valueSum)
        block.appendLittleEndian(reference)
        block.appendLittleEndian(UInt32(0))  // checksum, filled in below
        block.appendLittleEndian(UInt32(0))
        var bytes = block.bytes
        try payload.withUnsafeBytes { try zlib.deflate($0, appendingTo: &bytes) }
        let checksum = bytes.withUnsafeBytes {
            ZlibCodec.crc32(UnsafeRawBufferPointer(rebasing: $0[headerSize...]))
        }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(48..<52, with: $0) }
        return bytes
    }

    /// Reads the header of an encoded chunk without touching the payload.
    static func header(_ bytes: UnsafeRawBufferPointer) throws(Damage) -> Header {
        guard bytes.count >= headerSize else {
            throw Damage(reason: "\(bytes.count) bytes is shorter than a chunk header")
        }
        let version = bytes[0]
        guard version == formatVersion else {
            throw Damage(reason: "unknown chunk format version \(version)")
        }
        let exponent = bytes[1]
        guard exponent <= DecimalScale.maximumExponent || exponent == rawValuesMarker else {
            throw Damage(reason: "invalid value exponent \(exponent)")
        }
        let widths = (Int(bytes[2]), Int(bytes[3]), Int(bytes[4]))
        guard (1...8).contains(widths.0), (1...8).contains(widths.1), (1...8).contains(widths.2),
            bytes[5] == 0, bytes[6] == 0, bytes[7] == 0, bytes[52] == 0, bytes[53] == 0,
            bytes[54] == 0, bytes[55] == 0
        else { throw Damage(reason: "invalid column widths") }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        let header = Header(
            count: Int(load(8, UInt32.self)), minimumStart: load(16, Int64.self),
            maximumEnd: load(24, Int64.self),
            valueSum: Double(bitPattern: load(32, UInt64.self)),
            durationReference: load(40, Int64.self),
            widths: widths, checksum: load(48, UInt32.self), valueExponent: exponent)
        guard header.count > 0, Int(load(12, UInt32.self)) == header.payloadLength else {
            throw Damage(
                reason:
                    "header claims \(header.count) samples in \(load(12, UInt32.self)) payload bytes"
            )
        }
        return header
    }

    /// Decodes a chunk, checking its checksum, and appends its samples to `samples`.
    ///
    /// - Throws: ``Damage`` when the checksum, the compressed stream or the header's
    ///   totals disagree; nothing is appended then.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, zlib: ZlibCodec, appendingTo samples: inout [Sample]
    ) throws(Damage) {
        let header = try header(bytes)
        let compressed = UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
        guard ZlibCodec.crc32(compressed) == header.checksum else {
            throw Damage(reason: "payload checksum mismatch")
        }
        let payload = UnsafeMutableRawBufferPointer.allocate(
            byteCount: header.payloadLength, alignment: 8)
        defer { payload.deallocate() }
        do {
            try zlib.inflate(compressed, into: payload)
        } catch {
            throw Damage(reason: "\(error)")
        }
        let firstNew = samples.count
        let count = header.count
        samples.append(
            contentsOf: repeatElement(
                Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0), count: count))
        var valueSum = 0.0
        var maximumEnd = Int64.min
        samples.withUnsafeMutableBufferPointer { buffer in
            let out = UnsafeMutableBufferPointer(rebasing: buffer[firstNew...])
            let gapOffset = count * header.widths.duration
            let valueOffset = gapOffset + count * header.widths.gap
            let base = UnsafeRawBufferPointer(payload)
            var previousEnd = header.minimumStart
            var previousScaled: Int64 = 0
            let raw = header.valueExponent == rawValuesMarker
            let power = raw ? 1 : DecimalScale.powers[Int(header.valueExponent)]
            for index in 0..<count {
                let duration =
                    header.durationReference
                    &+ unZigZag(plane(base, 0, count, header.widths.duration, index))
                let start =
                    previousEnd &+ unZigZag(plane(base, gapOffset, count, header.widths.gap, index))
                let end = start &+ duration
                let bits = plane(base, valueOffset, count, header.widths.value, index)
                let value: Double
                if raw {
                    value = Double(bitPattern: bits)
                } else {
                    previousScaled = previousScaled &+ unZigZag(bits)
                    value = Double(previousScaled) / power
                }
                out[index] = Sample(startMilliseconds: start, endMilliseconds: end, value: value)
                previousEnd = end
                valueSum += value
                maximumEnd = max(maximumEnd, end)
            }
        }
        guard valueSum.bitPattern == header.valueSum.bitPattern, maximumEnd == header.maximumEnd
        else {
            samples.removeSubrange(firstNew...)
            throw Damage(reason: "decoded samples disagree with the header's totals")
        }
    }

    // MARK: Columns

    /// A median of up to 15 evenly spaced durations: robust to a few long samples, cheap to find.
    private static func durationReference(_ samples: ArraySlice<Sample>) -> Int64 {
        let step = max(1, samples.count / 15)
        let picked = stride(from: samples.startIndex, to: samples.endIndex, by: step)
            .map { samples[$0].endMilliseconds - samples[$0].startMilliseconds }.sorted()
        return picked[picked.count / 2]
    }

    @inline(__always)
    private static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    @inline(__always)
    private static func unZigZag(_ raw: UInt64) -> Int64 {
        Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    private static func width(of values: [UInt64]) -> Int {
        let combined = values.reduce(0, |)
        return max(1, (64 - combined.leadingZeroBitCount + 7) / 8)
    }

    private static func appendPlanes(_ values: [UInt64], width: Int, to payload: inout [UInt8]) {
        for byte in 0..<width {
            let shift = UInt64(byte * 8)
            payload.append(contentsOf: values.lazy.map { UInt8(truncatingIfNeeded: $0 >> shift) })
        }
    }

    /// Sample `index`'s value in a column of `width` byte planes starting at `offset`.
    @inline(__always)
    private static func plane(
        _ base: UnsafeRawBufferPointer, _ offset: Int, _ count: Int, _ width: Int, _ index: Int
    ) -> UInt64 {
        var value: UInt64 = 0
        for byte in 0..<width {
            value |= UInt64(base[offset + byte * count + index]) << UInt64(byte * 8)
        }
        return value
    }
}
