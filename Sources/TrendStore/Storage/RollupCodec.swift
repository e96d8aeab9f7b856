/// Reads the rollup rows of format 1 (seven per value in ``RollupBlock``), written by
/// releases up to 2026-11-23 and kept until the format migration replaces them with
/// ``RollupRowCodec`` rows; also the home of the rollup damage error of both formats.
///
/// Layout: version (1 byte, 1); start-sum exponent (1 byte, 255 = raw doubles);
/// a 96-bit little-endian bitmap of the slots some sample touches (12 bytes); then per
/// such slot: the prorated sum (8 bytes), the start count (varint) and, when that is
/// not zero, the start sum (zig-zag varint of the scaled integer, or 8 raw bytes);
/// last, the CRC-32 of everything before it (4 bytes), so a damaged row is never read
/// as numbers.
enum RollupCodec {
    static let version: UInt8 = 1
    static let rawMarker: UInt8 = 255
    static let bitmapSize = 12

    /// Thrown when a row cannot be read.
    struct Damage: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }

        init(reason: String) { self.reason = reason }

        /// The damage an error thrown while reading a row stands for: itself when it is one,
        /// else the row ended early (``ByteReader/Truncated``).
        init(readError error: any Error) {
            self = error as? Damage ?? Damage(reason: "truncated rollup row")
        }
    }

    /// Calls `body(slot, prorated, startCount, startSum)` for each touched slot, in order.

    @inline(__always)
    static func forEachSlot(
        _ row: UnsafeRawBufferPointer,
        _ body: (Int, Double, UInt32, Double) -> Void
    ) throws(Damage) {
        guard row.count >= 2 + bitmapSize + 4 else {
            throw Damage(reason: "\(row.count) bytes is too short for a rollup row")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: row[..<(row.count - 4)])
        let stored = UInt32(
            littleEndian: row.loadUnaligned(fromByteOffset: row.count - 4, as: UInt32.self))
        guard ZlibCodec.crc32(bytes) == stored else {
            throw Damage(reason: "rollup checksum mismatch")
        }
        var reader = ByteReader(bytes)
        do {
            let rowVersion = try reader.readByte()
            guard rowVersion == version else {
                throw Damage(reason: "unknown rollup version \(rowVersion)")
            }
            let exponent = try reader.readByte()
            guard exponent <= DecimalScale.maximumExponent || exponent == rawMarker else {
                throw Damage(reason: "invalid start-sum exponent \(exponent)")
            }
            guard bytes.count >= 2 + bitmapSize else { throw ByteReader.Truncated() }
            let low = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt64.self))
            let high = UInt64(
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 10, as: UInt32.self)))
            reader = ByteReader(bytes, offset: 2 + bitmapSize)
            let power = exponent == rawMarker ? 1 : DecimalScale.powers[Int(exponent)]
            for slot in 0..<DayRollup.slotCount {
                let present =
                    slot < 64 ? (low >> UInt64(slot)) & 1 : (high >> UInt64(slot - 64)) & 1
                guard present != 0 else { continue }
                let prorated = try reader.readDouble()
                let countValue = try reader.readVarint()
                guard countValue <= UInt64(UInt32.max) else {
                    throw Damage(reason: "start count out of range")
                }
                var startSum = 0.0
                if countValue > 0 {
                    if exponent == rawMarker {
                        startSum = try reader.readDouble()
                    } else {
                        let scaled = try reader.readZigZag()
                        startSum = Double(scaled) / power
                    }
                }
                body(slot, prorated, UInt32(countValue), startSum)
            }
            guard reader.remaining == 0 else {
                throw Damage(reason: "trailing bytes after the last slot")
            }
        } catch {
            throw Damage(readError: error)
        }
    }
}
