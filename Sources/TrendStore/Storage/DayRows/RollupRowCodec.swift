/// Encodes ``DayRollup`` rows (one LMDB value per series and UTC day in `days`), format 1,
/// and reads them back without allocating; rows of layout 2 are ``CompactRowCodec``'s,
/// which this reads through.
///
/// Layout 1 (the full row): layout (1 byte, 1); exponent of the exact form (1 byte, 255 for
/// `Double` sums); flags (1 byte: bit 0 = a second bitmap follows); a 96-bit little-endian
/// bitmap of the touched slots (12 bytes); when flagged, a 96-bit bitmap of the slots with
/// *spill* (12 bytes); then per touched slot, in order: the start count (varint); when it
/// is not zero, the start sum (zig-zag varint of the scaled integer, or 8 raw bytes); when
/// the slot has spill, the escaping integer (zig-zag varint) or the contained sum (8 raw
/// bytes), and the shares (8 raw bytes); a discrete series' row (flag bit 1) then has, for
/// each slot with starts, the minimum and maximum value, the latest sample's start as an
/// offset from the slot's start (varint), its duration (varint) and its value, the values
/// as zig-zag varints of scaled integers in the exact form or 8 raw bytes otherwise (and
/// always raw with flag bit 2); flag bit 3 (a row merged from several sources) stores the
/// start sum of every touched slot, with starts or not; last, the CRC-32C of everything before it (4 bytes,
/// ``CRC32C``).
///
/// A slot has spill when a sample in it is not contained in its start slot; a
/// minute-cadence day has none, so its row is about three bytes per slot.
enum RollupRowCodec {
    /// The layout byte of full rows.
    static let version: UInt8 = 1
    static let doubleMarker: UInt8 = 255
    private static let bitmapSize = 12

    /// The row of `rollup`: of layout 2 (``CompactRowCodec``) where it applies and is
    /// smaller, else the full row. A discrete series or the `Double` form takes the full
    /// row, and so does a day whose full row is smaller (a day of a few samples: layout 2's
    /// bitmaps and column headers take about 25 bytes).
    static func encode(_ rollup: DayRollup) -> [UInt8] {
        let full = encodeFull(rollup)
        guard CompactRowCodec.applies(to: rollup) else { return full }
        let compact = CompactRowCodec.encode(rollup)
        return compact.count < full.count ? compact : full
    }

    /// The full row (layout 1) of `rollup`.
    static func encodeFull(_ rollup: DayRollup) -> [UInt8] {
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
        let extremesAsIntegers = rollup.exponent.map { exponent in
            rollup.extremes.map { Self.allScale($0, rollup: rollup, exponent: exponent) } ?? true
        }
        // A merged row (several sources) may hold a start sum where no sample counts.
        let sumsWithoutStarts = (0..<DayRollup.slotCount).contains {
            rollup.touched[$0] && rollup.startCounts[$0] == 0
                && rollup.startSum($0).bitPattern != 0
        }
        var flags: UInt8 = anySpill ? 1 : 0
        if rollup.extremes != nil { flags |= 2 }
        if rollup.extremes != nil && extremesAsIntegers != true { flags |= 4 }
        if sumsWithoutStarts { flags |= 8 }
        writer.append(flags)
        writer.append(contentsOf: touched)
        if anySpill { writer.append(contentsOf: spill) }
        for slot in 0..<DayRollup.slotCount where rollup.touched[slot] {
            writer.appendVarint(UInt64(rollup.startCounts[slot]))
            if rollup.startCounts[slot] > 0 || sumsWithoutStarts {
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
            if let extremes = rollup.extremes, rollup.startCounts[slot] > 0 {
                let latest = extremes.latest[slot]
                let slotStart = rollup.dayStart + Int64(slot) * TimeGrid.quarterHour
                func appendValue(_ value: Double) {
                    if let exponent = rollup.exponent, extremesAsIntegers == true,
                        let integer = DecimalScale.scaled(value, exponent: exponent)
                    {
                        writer.appendZigZag(integer)
                    } else {
                        writer.appendDouble(value)
                    }
                }
                appendValue(extremes.minimum[slot])
                appendValue(extremes.maximum[slot])
                writer.appendVarint(UInt64(latest.startMilliseconds - slotStart))
                writer.appendVarint(UInt64(latest.endMilliseconds - latest.startMilliseconds))
                appendValue(latest.value)
            }
        }
        let sum = writer.bytes.withUnsafeBytes { CRC32C.checksum($0) }
        writer.appendLittleEndian(sum)
        return writer.bytes
    }

    /// Whether every minimum, maximum and latest value scales exactly at `exponent`.
    private static func allScale(_ extremes: SlotExtremes, rollup: DayRollup, exponent: Int)
        -> Bool
    {
        (0..<DayRollup.slotCount).allSatisfy { slot in
            rollup.startCounts[slot] == 0
                || [extremes.minimum[slot], extremes.maximum[slot], extremes.latest[slot].value]
                    .allSatisfy { DecimalScale.scaled($0, exponent: exponent) != nil }
        }
    }

    /// Whether `slot` needs more than its start sum to give its prorated sum.
    private static func hasSpill(_ rollup: DayRollup, _ slot: Int) -> Bool {
        guard rollup.touched[slot] else { return false }
        if rollup.shares[slot].bitPattern != 0 { return true }
        return rollup.exponent != nil
            ? rollup.escapingIntegers[slot] != 0
            : rollup.containedSums[slot].bitPattern != rollup.startSums[slot].bitPattern
    }

    /// Calls `body(slot, prorated, startCount, startSum)` for each touched slot of
    /// `slots`, in order.
    @inline(__always)
    static func forEachSlot(
        _ row: UnsafeRawBufferPointer, in slots: Range<Int> = 0..<DayRollup.slotCount,
        _ body: (Int, Double, UInt32, Double) -> Void
    ) throws(RowDamage) {
        if isCompact(row) {
            try CompactRowCodec.parse(row, slots: slots) {
                _, power, slot, count, start, escaping, shares in
                body(slot, Double(start &- escaping) / power + shares, count, Double(start) / power)
            }
            return
        }
        try parse(row, day: 0, slots: slots) {
            exponent, power, slot, count, start, spill, _ in
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
    static func decode(_ row: UnsafeRawBufferPointer, day: Int64) throws(RowDamage)
        -> DayRollup
    {
        if isCompact(row) { return try CompactRowCodec.decode(row, day: day) }
        var rollup = DayRollup(day: day, kind: isDiscrete(row) ? .discrete : .cumulative)
        try parse(row, day: day) { exponent, _, slot, count, start, spill, extreme in
            if let extreme {
                rollup.extremes?.minimum[slot] = extreme.minimum
                rollup.extremes?.maximum[slot] = extreme.maximum
                rollup.extremes?.latest[slot] = extreme.latest
            }
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

    /// Calls `body(slot, count, sum, extremes)` for each slot of `slots` of a discrete
    /// series' row of `day` where samples start, in order.
    @inline(__always)
    static func forEachDiscreteSlot(
        _ row: UnsafeRawBufferPointer, day: Int64, in slots: Range<Int> = 0..<DayRollup.slotCount,
        _ body: (Int, UInt32, Double, ExtremeFields) -> Void
    ) throws(RowDamage) {
        // A cumulative series' row has no discrete slots; it is still checked.
        if isCompact(row) {
            return try CompactRowCodec.parse(row, slots: 0..<0) { _, _, _, _, _, _, _ in }
        }
        try parse(row, day: day, slots: slots) { exponent, power, slot, count, start, _, extreme in
            guard let extreme else { return }
            body(slot, count, exponent != nil ? Double(start.integer) / power : start.sum, extreme)
        }
    }

    /// Whether a row (checked or not) is a discrete series' row.
    static func isDiscrete(_ row: UnsafeRawBufferPointer) -> Bool {
        row.count > 2 && !isCompact(row) && row[2] & 2 != 0
    }

    /// Whether a row (checked or not) is of layout 2 (``CompactRowCodec``).
    @inline(__always)
    static func isCompact(_ row: UnsafeRawBufferPointer) -> Bool {
        row.first == CompactRowCodec.version
    }

    /// The stored minimum, maximum and latest sample of a discrete series' slot.
    struct ExtremeFields {
        var minimum = 0.0
        var maximum = 0.0
        var latest = Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0)
    }

    /// The stored fields of a slot with spill.
    struct SpillFields {
        var escaping: Int64 = 0
        var contained = 0.0
        var shares = 0.0
    }

    /// Checks a row of `day` and calls `body(exponent, 10^exponent, slot, count, start,
    /// spill, extremes)` for each touched slot of `slots`, moving past the slots before
    /// them without decoding their fields. The checksum covers the whole row; the row's end
    /// is checked only when the parse reaches it.
    @inline(__always)
    private static func parse(
        _ row: UnsafeRawBufferPointer, day: Int64, slots: Range<Int> = 0..<DayRollup.slotCount,
        _ body: (Int?, Double, Int, UInt32, StartField, SpillFields?, ExtremeFields?) -> Void
    ) throws(RowDamage) {
        guard row.count >= 3 + bitmapSize + 4, let (bytes, stored) = row.splittingTrailingChecksum()
        else {
            throw RowDamage(reason: "\(row.count) bytes is too short for a rollup row")
        }
        guard bytes[0] == version else {
            throw RowDamage(reason: "unknown rollup row layout \(bytes[0])")
        }
        guard CRC32C.checksum(bytes) == stored else {
            throw RowDamage(reason: "rollup checksum mismatch")
        }
        let exponentByte = bytes[1]
        guard exponentByte <= DecimalScale.maximumExponent || exponentByte == doubleMarker else {
            throw RowDamage(reason: "invalid exponent \(exponentByte)")
        }
        let flags = bytes[2]
        let hasSpill = flags & 1 != 0
        let hasExtremes = flags & 2 != 0
        let extremesAsDoubles = flags & 4 != 0
        let sumsWithoutStarts = flags & 8 != 0
        let bitmaps = hasSpill ? 2 : 1
        guard flags <= 15, hasExtremes || !extremesAsDoubles,
            !(hasExtremes && sumsWithoutStarts),
            bytes.count >= 3 + bitmapSize * bitmaps
        else {
            throw RowDamage(reason: "invalid rollup flags")
        }
        let touched = SlotBitmap(bytes, at: 3, bits: 8 * bitmapSize)
        let spill =
            hasSpill ? SlotBitmap(bytes, at: 3 + bitmapSize, bits: 8 * bitmapSize) : SlotBitmap()
        guard spill.isSubset(of: touched) else {
            throw RowDamage(reason: "spill in an untouched slot")
        }
        let exponent = exponentByte == doubleMarker ? nil : Int(exponentByte)
        let power = exponent.map { DecimalScale.powers[$0] } ?? 1
        var reader = ByteReader(bytes, offset: 3 + bitmapSize * bitmaps)
        let dayStart = day &* TimeGrid.day
        do {
            let endSlot = max(0, min(slots.upperBound, DayRollup.slotCount))
            let integerExtremes = exponent != nil && !extremesAsDoubles
            for slot in 0..<endSlot where touched.contains(slot) {
                if slot < slots.lowerBound {
                    try skipSlot(
                        &reader, exact: exponent != nil, spill: spill.contains(slot),
                        extremes: hasExtremes ? integerExtremes : nil,
                        sumsWithoutStarts: sumsWithoutStarts)
                    continue
                }
                let count = try reader.readVarint()
                guard count <= UInt64(UInt32.max) else {
                    throw RowDamage(reason: "start count out of range")
                }
                var start = StartField()
                if count > 0 || sumsWithoutStarts {
                    if exponent != nil {
                        start.integer = try reader.readZigZag()
                    } else {
                        start.sum = try reader.readDouble()
                    }
                }
                var fields: SpillFields?
                if spill.contains(slot) {
                    var read = SpillFields()
                    if exponent != nil {
                        read.escaping = try reader.readZigZag()
                    } else {
                        read.contained = try reader.readDouble()
                    }
                    read.shares = try reader.readDouble()
                    fields = read
                }
                var extreme: ExtremeFields?
                if hasExtremes && count > 0 {
                    func value() throws -> Double {
                        exponent != nil && !extremesAsDoubles
                            ? Double(try reader.readZigZag()) / power : try reader.readDouble()
                    }
                    var read = ExtremeFields()
                    read.minimum = try value()
                    read.maximum = try value()
                    let offset = try reader.readVarint()
                    let duration = try reader.readVarint()
                    guard offset < UInt64(TimeGrid.quarterHour), duration <= UInt64(Int64.max)
                    else {
                        throw RowDamage(reason: "latest sample out of its slot")
                    }
                    let latestStart =
                        dayStart &+ Int64(slot) &* TimeGrid.quarterHour &+ Int64(offset)
                    let (latestEnd, overflow) = latestStart.addingReportingOverflow(Int64(duration))
                    guard !overflow else {
                        throw RowDamage(reason: "latest sample out of range")
                    }
                    read.latest = Sample(
                        startMilliseconds: latestStart, endMilliseconds: latestEnd,
                        value: try value())
                    extreme = read
                }
                body(exponent, power, slot, UInt32(count), start, fields, extreme)
            }
            guard reader.remaining == 0 || endSlot < DayRollup.slotCount else {
                throw RowDamage(reason: "trailing bytes after the last slot")
            }
        } catch {
            throw RowDamage(readError: error)
        }
    }

    /// Moves past one slot's fields: `exact` when sums are scaled integers, `extremes` (when
    /// the row has them) whether they are scaled integers.
    @inline(__always)
    private static func skipSlot(
        _ reader: inout ByteReader, exact: Bool, spill: Bool, extremes: Bool?,
        sumsWithoutStarts: Bool
    ) throws(ByteReader.Truncated) {
        let hasStarts = try reader.readVarint() > 0
        if hasStarts || sumsWithoutStarts {
            if exact { try reader.skipVarints(1) } else { try reader.skip(8) }
        }
        if spill {
            if exact { try reader.skipVarint() } else { try reader.skip(8) }
            try reader.skip(8)
        }
        if let integers = extremes, hasStarts {
            // Minimum, maximum, the latest sample's offset, duration and value.
            if integers {
                try reader.skipVarints(5)
            } else {
                try reader.skip(16)
                try reader.skipVarints(2)
                try reader.skip(8)
            }
        }
    }
}
