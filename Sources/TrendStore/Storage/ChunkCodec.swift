/// Reads the chunks of format 1, written by releases up to 2026-11-23: one chunk per series
/// and UTC week. New samples are written as ``BlockCodec`` blocks; the format migration
/// rewrites these chunks as blocks.
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
    struct Header {
        var count: Int
        var minimumStart: Int64
        var maximumEnd: Int64
        var valueSum: Double
        var durationReference: Int64
        var widths: (duration: Int, gap: Int, value: Int)
        var checksum: UInt32
        var valueExponent: UInt8

        var payloadLength: Int { count * (widths.duration + widths.gap + widths.value) }
    }

    /// Reads the header of an encoded chunk without touching the payload.
    static func header(_ bytes: UnsafeRawBufferPointer) throws(ChunkDamage) -> Header {
        guard bytes.count >= headerSize else {
            throw ChunkDamage(reason: "\(bytes.count) bytes is shorter than a chunk header")
        }
        let version = bytes[0]
        guard version == formatVersion else {
            throw ChunkDamage(reason: "unknown chunk format version \(version)")
        }
        let exponent = bytes[1]
        guard exponent <= DecimalScale.maximumExponent || exponent == rawValuesMarker else {
            throw ChunkDamage(reason: "invalid value exponent \(exponent)")
        }
        let widths = (Int(bytes[2]), Int(bytes[3]), Int(bytes[4]))
        guard (1...8).contains(widths.0), (1...8).contains(widths.1), (1...8).contains(widths.2),
            bytes[5] == 0, bytes[6] == 0, bytes[7] == 0, bytes[52] == 0, bytes[53] == 0,
            bytes[54] == 0, bytes[55] == 0
        else { throw ChunkDamage(reason: "invalid column widths") }
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
            throw ChunkDamage(
                reason:
                    "header claims \(header.count) samples in \(load(12, UInt32.self)) payload bytes"
            )
        }
        guard header.payloadLength <= (bytes.count - headerSize) * ZlibCodec.maximumExpansion else {
            throw ChunkDamage(
                reason:
                    "\(bytes.count - headerSize) compressed bytes cannot inflate to \(header.payloadLength)"
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
    ) throws(ChunkDamage) {
        let header = try header(bytes)
        let compressed = UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
        guard ZlibCodec.crc32(compressed) == header.checksum else {
            throw ChunkDamage(reason: "payload checksum mismatch")
        }
        let payload = UnsafeMutableRawBufferPointer.allocate(
            byteCount: header.payloadLength, alignment: 8)
        defer { payload.deallocate() }
        do {
            try zlib.inflate(compressed, into: payload)
        } catch {
            throw ChunkDamage(reason: "\(error)")
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
            let valueOffset = count * (header.widths.duration + header.widths.gap)
            let base = UnsafeRawBufferPointer(payload)
            var previousScaled: Int64 = 0
            let raw = header.valueExponent == rawValuesMarker
            let power = raw ? 1 : DecimalScale.powers[Int(header.valueExponent)]
            ByteColumns.forEachSpan(
                count: count,
                durations: ColumnReader(
                    payload: base, offset: 0, count: count,
                    layout: .planes(width: header.widths.duration)),
                gaps: ColumnReader(
                    payload: base, offset: count * header.widths.duration, count: count,
                    layout: .planes(width: header.widths.gap)),
                durationReference: header.durationReference, firstStart: header.minimumStart
            ) { index, start, end in
                let bits = ByteColumns.plane(base, valueOffset, count, header.widths.value, index)
                let value: Double
                if raw {
                    value = Double(bitPattern: bits)
                } else {
                    previousScaled = previousScaled &+ ByteColumns.unZigZag(bits)
                    value = Double(previousScaled) / power
                }
                out[index] = Sample(startMilliseconds: start, endMilliseconds: end, value: value)
                valueSum += value
                maximumEnd = max(maximumEnd, end)
            }
        }
        guard valueSum.bitPattern == header.valueSum.bitPattern, maximumEnd == header.maximumEnd
        else {
            samples.removeSubrange(firstNew...)
            throw ChunkDamage(reason: "decoded samples disagree with the header's totals")
        }
    }
}
