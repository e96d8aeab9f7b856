/// Encodes a sorted run of samples into one compressed, checksummed block, and back.
///
/// Layout (little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | format version (1) |
/// | 1 | 1 | value exponent `k` (values are integers ÷ 10^k), or 255 for raw IEEE bits |
/// | 2 | 2 | reserved, zero |
/// | 4 | 4 | sample count |
/// | 8 | 8 | smallest start (ms) |
/// | 16 | 8 | largest end (ms) |
/// | 24 | 8 | sum of the values, in sample order |
/// | 32 | 4 | uncompressed payload length |
/// | 36 | 4 | CRC-32 of the compressed payload |
/// | 40 | … | zlib-deflated payload |
///
/// The payload is three columns, one after the other: durations (varints), start gaps
/// (zig-zag varints of `start − previous end`, the first against the smallest start:
/// contiguous samples cost one zero byte), and values (zig-zag varints of the
/// difference between consecutive scaled integers, or 8 raw bytes each). Arithmetic on
/// gaps wraps, so any Int64 times round-trip.
enum ChunkCodec {
    static let formatVersion: UInt8 = 1
    static let headerSize = 40
    static let rawValuesMarker: UInt8 = 255

    /// What a chunk's header says, readable without inflating the payload.
    struct Header: Equatable {
        var count: Int
        var minimumStart: Int64
        var maximumEnd: Int64
        var valueSum: Double
        var payloadLength: Int
        var checksum: UInt32
        var valueExponent: UInt8
    }

    /// Why a chunk could not be read.
    struct Damage: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Encodes `samples`, which must be sorted by `(start, end)` with unique identities.
    static func encode(_ samples: ArraySlice<Sample>, zlib: ZlibCodec) throws -> [UInt8] {
        precondition(!samples.isEmpty, "a chunk holds at least one sample")
        let exponent = DecimalScale.commonExponent(of: samples.lazy.map(\.value))
        var payload = ByteWriter(capacity: samples.count * 12)
        var minimumStart = Int64.max
        var maximumEnd = Int64.min
        var valueSum = 0.0
        for sample in samples {
            payload.appendVarint(UInt64(sample.endMilliseconds - sample.startMilliseconds))
            minimumStart = min(minimumStart, sample.startMilliseconds)
            maximumEnd = max(maximumEnd, sample.endMilliseconds)
            valueSum += sample.value
        }
        var previousEnd = minimumStart
        for sample in samples {
            payload.appendZigZag(sample.startMilliseconds &- previousEnd)
            previousEnd = sample.endMilliseconds
        }
        if let exponent {
            var previous: Int64 = 0
            for sample in samples {
                let scaled = DecimalScale.scaled(sample.value, exponent: exponent)!
                payload.appendZigZag(scaled &- previous)
                previous = scaled
            }
        } else {
            for sample in samples { payload.appendDouble(sample.value) }
        }

        var block = ByteWriter(capacity: headerSize + payload.bytes.count / 2)
        block.append(formatVersion)
        block.append(exponent.map { UInt8($0) } ?? rawValuesMarker)
        block.appendLittleEndian(UInt16(0))
        block.appendLittleEndian(UInt32(samples.count))
        block.appendLittleEndian(minimumStart)
        block.appendLittleEndian(maximumEnd)
        block.appendDouble(valueSum)
        block.appendLittleEndian(UInt32(payload.bytes.count))
        block.appendLittleEndian(UInt32(0))  // checksum, filled in below
        var bytes = block.bytes
        try payload.bytes.withUnsafeBytes { try zlib.deflate($0, appendingTo: &bytes) }
        let checksum = bytes.withUnsafeBytes { ZlibCodec.crc32(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(36..<40, with: $0) }
        return bytes
    }

    /// Reads the header of an encoded chunk without touching the payload.
    static func header(_ bytes: UnsafeRawBufferPointer) throws(Damage) -> Header {
        guard bytes.count >= headerSize else { throw Damage(reason: "\(bytes.count) bytes is shorter than a chunk header") }
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readByte()
            guard version == formatVersion else { throw Damage(reason: "unknown chunk format version \(version)") }
            let exponent = try reader.readByte()
            guard exponent <= DecimalScale.maximumExponent || exponent == rawValuesMarker else {
                throw Damage(reason: "invalid value exponent \(exponent)")
            }
            _ = try reader.readLittleEndian(UInt16.self)
            let count = Int(try reader.readLittleEndian(UInt32.self))
            let minimumStart = try reader.readLittleEndian(Int64.self)
            let maximumEnd = try reader.readLittleEndian(Int64.self)
            let valueSum = try reader.readDouble()
            let payloadLength = Int(try reader.readLittleEndian(UInt32.self))
            let checksum = try reader.readLittleEndian(UInt32.self)
            guard count > 0, payloadLength >= count * 3, payloadLength <= count * 30 else {
                throw Damage(reason: "header claims \(count) samples in \(payloadLength) payload bytes")
            }
            return Header(
                count: count, minimumStart: minimumStart, maximumEnd: maximumEnd, valueSum: valueSum,
                payloadLength: payloadLength, checksum: checksum, valueExponent: exponent)
        } catch let damage as Damage {
            throw damage
        } catch {
            throw Damage(reason: "truncated header")
        }
    }

    /// Decodes a chunk, checking its checksum, and appends its samples to `samples`.
    ///
    /// - Throws: ``Damage`` when the checksum, the compressed stream, the columns or
    ///   the header's totals disagree; nothing is appended then.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, zlib: ZlibCodec, appendingTo samples: inout [Sample]
    ) throws(Damage) {
        let header = try header(bytes)
        let compressed = UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
        guard ZlibCodec.crc32(compressed) == header.checksum else {
            throw Damage(reason: "payload checksum mismatch")
        }
        let payload = UnsafeMutableRawBufferPointer.allocate(byteCount: header.payloadLength, alignment: 8)
        defer { payload.deallocate() }
        do {
            try zlib.inflate(compressed, into: payload)
        } catch {
            throw Damage(reason: "\(error)")
        }
        let firstNew = samples.count
        do {
            try decodeColumns(UnsafeRawBufferPointer(payload), header: header, into: &samples)
        } catch {
            samples.removeSubrange(firstNew...)
            throw Damage(reason: "payload columns end early or overrun")
        }
        var valueSum = 0.0
        var minimumStart = Int64.max
        var maximumEnd = Int64.min
        for sample in samples[firstNew...] {
            valueSum += sample.value
            minimumStart = min(minimumStart, sample.startMilliseconds)
            maximumEnd = max(maximumEnd, sample.endMilliseconds)
        }
        guard valueSum.bitPattern == header.valueSum.bitPattern, minimumStart == header.minimumStart,
            maximumEnd == header.maximumEnd
        else {
            samples.removeSubrange(firstNew...)
            throw Damage(reason: "decoded samples disagree with the header's totals")
        }
    }

    private static func decodeColumns(
        _ payload: UnsafeRawBufferPointer, header: Header, into samples: inout [Sample]
    ) throws(ByteReader.Truncated) {
        let count = header.count
        var reader = ByteReader(payload)
        let firstNew = samples.count
        samples.reserveCapacity(firstNew + count)
        for _ in 0..<count {
            let duration = Int64(bitPattern: try reader.readVarint())
            samples.append(Sample(startMilliseconds: 0, endMilliseconds: duration, value: 0))
        }
        try samples.withUnsafeMutableBufferPointer { (buffer) throws(ByteReader.Truncated) in
            var previousEnd = header.minimumStart
            for index in firstNew..<(firstNew + count) {
                let start = previousEnd &+ (try reader.readZigZag())
                let end = start &+ buffer[index].endMilliseconds
                buffer[index].startMilliseconds = start
                buffer[index].endMilliseconds = end
                previousEnd = end
            }
            if header.valueExponent == rawValuesMarker {
                for index in firstNew..<(firstNew + count) { buffer[index].value = try reader.readDouble() }
            } else {
                let power = DecimalScale.powers[Int(header.valueExponent)]
                var previous: Int64 = 0
                for index in firstNew..<(firstNew + count) {
                    previous = previous &+ (try reader.readZigZag())
                    buffer[index].value = Double(previous) / power
                }
            }
        }
        guard reader.remaining == 0 else { throw ByteReader.Truncated() }
    }
}
