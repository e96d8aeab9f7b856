/// Encodes ``DayRollup`` rows of format 2 (one LMDB value per series and UTC day in
/// `days`) and reads them back without allocating.
///
/// Layout: version (1 byte, 2); exponent of the exact form (1 byte, 255 for `Double`
/// sums); flags (1 byte: bit 0 = a second bitmap follows); a 96-bit little-endian bitmap
/// of the touched slots (12 bytes); when flagged, a 96-bit bitmap of the slots with
/// *spill* (12 bytes); then per touched slot, in order: the start count (varint); when it
/// is not zero, the start sum (zig-zag varint of the scaled integer, or 8 raw bytes); when
/// the slot has spill, the escaping integer (zig-zag varint) or the contained sum (8 raw
/// bytes), and the shares (8 raw bytes); last, the CRC-32 of everything before it (4 bytes).
///
/// A slot has spill when a sample in it is not contained in its start slot; a
/// minute-cadence day has none, so its row is about three bytes per slot.
enum RollupRowCodec {
    static let version: UInt8 = 2
    static let doubleMarker: UInt8 = 255
    private static let bitmapSize = 12

    static func encode(_ rollup: DayRollup) -> [UInt8] {
        var writer = ByteWriter(capacity: 3 + 2 * bitmapSize + DayRollup.slotCount * 6)
        writer.append(version)
        writer.append(rollup.exponent.map { UInt8($0) } ?? doubleMarker)
        var touched = [UInt8](repeating: 0, count: bitmapSize)
        var spill = [UInt8](repeating: 0, count: bitmapSize)
        for slot in 0..<DayRollup.slotCount {
            if rollup.touched[slot] { touched[slot / 8] |= 1 << UInt8(slot % 8) }
            if hasSpill(rollup, slot) { spill[slot / 8] |= 1 << UInt8(slot % 8) }
        }
        let anySpill = spill.contains { $0 != 0 }
        writer.append(anySpill ? 1 : 0)
        writer.append(contentsOf: touched)
        if anySpill { writer.append(contentsOf: spill) }
        for slot in 0..<DayRollup.slotCount where rollup.touched[slot] {
            writer.appendVarint(UInt64(rollup.startCounts[slot]))
            if rollup.startCounts[slot] > 0 {
                if rollup.exponent != nil {
                    writer.appendZigZag(rollup.startIntegers[slot])
                } else {
                    writer.appendDouble(rollup.startSums[slot])
                }
            }
            if hasSpill(rollup, slot) {
                if rollup.exponent != nil {
                    writer.appendZigZag(rollup.escapingIntegers[slot])
                } else {
                    writer.appendDouble(rollup.containedSums[slot])
                }
                writer.appendDouble(rollup.shares[slot])
            }
        }
        let checksum = writer.bytes.withUnsafeBytes { ZlibCodec.crc32($0) }
        writer.appendLittleEndian(checksum)
        return writer.bytes
    }

    /// Whether `slot` needs more than its start sum to give its prorated sum.
    private static func hasSpill(_ rollup: DayRollup, _ slot: Int) -> Bool {
        guard rollup.touched[slot] else { return false }
        if rollup.shares[slot].bitPattern != 0 { return true }
        return rollup.exponent != nil
            ? rollup.escapingIntegers[slot] != 0
            : rollup.containedSums[slot].bitPattern != rollup.startSums[slot].bitPattern
    }

    /// Calls `body(slot, prorated, startCount, startSum)` for each touched slot, in order.
    @inline(__always)
    static func forEachSlot(
        _ row: UnsafeRawBufferPointer, _ body: (Int, Double, UInt32, Double) -> Void
    ) throws(RollupCodec.Damage) {
        try parse(row) { exponent, power, slot, count, start, spill in
            if exponent != nil {
                // The arithmetic of ``DayRollup/value(of:exponent:)`` and
                // ``DayRollup/prorated(_:)``, with the power looked up once per row; with no
                // spill the prorated sum is the start sum.
                let startSum = Double(start.integer) / power
                let prorated =
                    spill.map { Double(start.integer &- $0.escaping) / power + $0.shares }
                    ?? startSum
                body(slot, prorated, count, startSum)
            } else {
                let prorated = spill.map { $0.contained + $0.shares } ?? start.sum + 0.0
                body(slot, prorated, count, start.sum)
            }
        }
    }

    /// Reads a stored row back into the rollup it was encoded from.
    static func decode(_ row: UnsafeRawBufferPointer, day: Int64) throws(RollupCodec.Damage)
        -> DayRollup
    {
        var rollup = DayRollup(day: day)
        try parse(row) { exponent, _, slot, count, start, spill in
            rollup.exponent = exponent
            rollup.touched[slot] = true
            rollup.startCounts[slot] = count
            rollup.startIntegers[slot] = start.integer
            rollup.startSums[slot] = start.sum
            rollup.containedSums[slot] = spill?.contained ?? start.sum
            rollup.escapingIntegers[slot] = spill?.escaping ?? 0
            rollup.shares[slot] = spill?.shares ?? 0
        }
        return rollup
    }

    /// The stored fields of one slot's start sum: an integer in the exact form, a `Double` otherwise.
    struct StartField {
        var integer: Int64 = 0
        var sum = 0.0
    }

    /// The stored fields of a slot with spill.
    struct SpillFields {
        var escaping: Int64 = 0
        var contained = 0.0
        var shares = 0.0
    }

    /// Checks a row and calls `body(exponent, 10^exponent, slot, count, start, spill)` for
    /// each touched slot.
    @inline(__always)
    private static func parse(
        _ row: UnsafeRawBufferPointer,
        _ body: (Int?, Double, Int, UInt32, StartField, SpillFields?) -> Void
    ) throws(RollupCodec.Damage) {
        guard row.count >= 3 + bitmapSize + 4 else {
            throw RollupCodec.Damage(reason: "\(row.count) bytes is too short for a rollup row")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: row[..<(row.count - 4)])
        let stored = UInt32(
            littleEndian: row.loadUnaligned(fromByteOffset: row.count - 4, as: UInt32.self))
        guard ZlibCodec.crc32(bytes) == stored else {
            throw RollupCodec.Damage(reason: "rollup checksum mismatch")
        }
        guard bytes[0] == version else {
            throw RollupCodec.Damage(reason: "unknown rollup version \(bytes[0])")
        }
        let exponentByte = bytes[1]
        guard exponentByte <= DecimalScale.maximumExponent || exponentByte == doubleMarker else {
            throw RollupCodec.Damage(reason: "invalid exponent \(exponentByte)")
        }
        let flags = bytes[2]
        guard flags <= 1, bytes.count >= 3 + bitmapSize * (1 + Int(flags)) else {
            throw RollupCodec.Damage(reason: "invalid rollup flags")
        }
        let touched = bitmap(bytes, at: 3)
        let spill = flags == 1 ? bitmap(bytes, at: 3 + bitmapSize) : (0, 0)
        guard spill.0 & ~touched.0 == 0, spill.1 & ~touched.1 == 0 else {
            throw RollupCodec.Damage(reason: "spill in an untouched slot")
        }
        let exponent = exponentByte == doubleMarker ? nil : Int(exponentByte)
        let power = exponent.map { DecimalScale.powers[$0] } ?? 1
        var reader = ByteReader(bytes, offset: 3 + bitmapSize * (1 + Int(flags)))
        do {
            for slot in 0..<DayRollup.slotCount where isSet(touched, slot) {
                let count = try reader.readVarint()
                guard count <= UInt64(UInt32.max) else {
                    throw RollupCodec.Damage(reason: "start count out of range")
                }
                var start = StartField()
                if count > 0 {
                    if exponent != nil {
                        start.integer = try reader.readZigZag()
                    } else {
                        start.sum = try reader.readDouble()
                    }
                }
                var fields: SpillFields?
                if isSet(spill, slot) {
                    var read = SpillFields()
                    if exponent != nil {
                        read.escaping = try reader.readZigZag()
                    } else {
                        read.contained = try reader.readDouble()
                    }
                    read.shares = try reader.readDouble()
                    fields = read
                }
                body(exponent, power, slot, UInt32(count), start, fields)
            }
            guard reader.remaining == 0 else {
                throw RollupCodec.Damage(reason: "trailing bytes after the last slot")
            }
        } catch let damage as RollupCodec.Damage {
            throw damage
        } catch {
            throw RollupCodec.Damage(reason: "truncated rollup row")
        }
    }

    @inline(__always)
    private static func bitmap(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (UInt64, UInt64)
    {
        (
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
            UInt64(
                UInt32(
                    littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
        )
    }

    @inline(__always)
    private static func isSet(_ bitmap: (UInt64, UInt64), _ slot: Int) -> Bool {
        slot < 64 ? (bitmap.0 >> UInt64(slot)) & 1 != 0 : (bitmap.1 >> UInt64(slot - 64)) & 1 != 0
    }
}
