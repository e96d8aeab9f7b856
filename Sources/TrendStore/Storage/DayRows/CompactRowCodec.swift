/// Encodes the rollup rows of layout 2 (format 1): a cumulative series' day in the exact form, with
/// the figures of the slots that samples cross recomputed from the crossing samples
/// (``SlotCrossing``) instead of stored, and every column bit-packed (``PackedColumn``).
///
/// A minute-cadence day whose samples do not line up with the quarter-hours has a sample
/// across nearly every boundary; the full row (layout 1) stores each such slot's share as an 8-byte
/// double and its escaping integer (13–15 bytes a slot). Here the crossing sample's value,
/// its time before the boundary and its duration take about 38 bits, and a slot's share
/// is recomputed with the formula ``DayRollup/build(day:kind:from:)`` used, in the same
/// order, so it has the same bits. The encoder recomputes every slot and stores the ones
/// that differ (several samples at a boundary, a sample across several) explicitly.
///
/// Layout: layout (1 byte, 2); exponent (1 byte); flags (1 byte: bit 0 = explicit slots
/// follow); the 96-bit little-endian bitmap of touched slots (12 bytes); the 97-bit bitmap
/// of boundaries 0…96 with a crossing (13 bytes); when flagged, the 96-bit bitmap of
/// explicit slots (12 bytes); five column headers (base as a zig-zag varint, width byte):
/// start counts and start integers of the touched slots, then the crossings' integers,
/// times before the boundary and durations; the five columns' packed bits, each from a
/// whole byte; per explicit slot its escaping integer (zig-zag varint) and shares (8
/// bytes); the CRC-32C of everything before (4 bytes).
enum CompactRowCodec {
    /// The layout byte of compact rows.
    static let version: UInt8 = 2
    private static let slotBitmapSize = 12
    private static let boundaryBitmapSize = 13

    /// Whether `rollup` has this form: a cumulative series' day in the exact form.
    static func applies(to rollup: DayRollup) -> Bool {
        rollup.exponent != nil && rollup.extremes == nil
    }

    /// The two shares of a crossing sample: of the slot it leaves (its time before the
    /// boundary) and of the slot it enters (the rest), by ``Proration/share(of:overlap:duration:)``
    /// as ``DayRollup/build(day:kind:from:)`` computes them.
    @inline(__always)
    static func shares(
        integer: Int64, before: Int64, duration: Int64, power: Double
    ) -> (leaving: Double, entering: Double) {
        let value = Double(integer) / power
        let length = Double(duration)
        return (
            Proration.share(of: value, overlap: before, duration: length),
            Proration.share(of: value, overlap: duration &- before, duration: length)
        )
    }

    /// A slot's shares from the crossing samples at its two boundaries, added as
    /// ``DayRollup/build(day:kind:from:)`` adds them: the sample entering first (it starts
    /// earlier), then the one leaving.
    @inline(__always)
    static func slotShares(entering: Double?, leaving: Double?) -> Double {
        var shares = 0.0
        if let entering { shares += entering }
        if let leaving { shares += leaving }
        return shares
    }

    /// The row of `rollup` (``applies(to:)`` holds).
    static func encode(_ rollup: DayRollup) -> [UInt8] {
        let exponent = rollup.exponent ?? 0
        let power = DecimalScale.powers[exponent]
        var byBoundary = [SlotCrossing?](repeating: nil, count: DayRollup.slotCount + 1)
        for crossing in rollup.crossings { byBoundary[crossing.boundary] = crossing }
        var touched = [UInt8](repeating: 0, count: slotBitmapSize)
        var explicit = [UInt8](repeating: 0, count: slotBitmapSize)
        var crossed = [UInt8](repeating: 0, count: boundaryBitmapSize)
        var counts: [Int64] = []
        var starts: [Int64] = []
        var explicitSlots: [Int] = []
        for slot in 0..<DayRollup.slotCount where rollup.touched[slot] {
            touched[slot / 8] |= 1 << UInt8(slot % 8)
            counts.append(Int64(rollup.startCounts[slot]))
            starts.append(rollup.startIntegers[slot])
            let entering = byBoundary[slot].map {
                shares(integer: $0.integer, before: $0.before, duration: $0.duration, power: power)
                    .entering
            }
            let leaving = byBoundary[slot + 1]
            let leavingShare = leaving.map {
                shares(integer: $0.integer, before: $0.before, duration: $0.duration, power: power)
                    .leaving
            }
            if (leaving?.integer ?? 0) != rollup.escapingIntegers[slot]
                || slotShares(entering: entering, leaving: leavingShare).bitPattern
                    != rollup.shares[slot].bitPattern
            {
                explicit[slot / 8] |= 1 << UInt8(slot % 8)
                explicitSlots.append(slot)
            }
        }
        for crossing in rollup.crossings {
            crossed[crossing.boundary / 8] |= 1 << UInt8(crossing.boundary % 8)
        }
        let columns = [
            counts, starts, rollup.crossings.map(\.integer), rollup.crossings.map(\.before),
            rollup.crossings.map(\.duration),
        ]
        var writer = ByteWriter(capacity: 64 + DayRollup.slotCount * 7)
        writer.append(version)
        writer.append(UInt8(exponent))
        writer.append(explicitSlots.isEmpty ? 0 : 1)
        writer.append(contentsOf: touched)
        writer.append(contentsOf: crossed)
        if !explicitSlots.isEmpty { writer.append(contentsOf: explicit) }
        let frames = columns.map(PackedColumn.init(fitting:))
        for frame in frames { frame.appendHeader(to: &writer) }
        for (frame, values) in zip(frames, columns) { frame.appendBits(values, to: &writer) }
        for slot in explicitSlots {
            writer.appendZigZag(rollup.escapingIntegers[slot])
            writer.appendDouble(rollup.shares[slot])
        }
        let sum = writer.bytes.withUnsafeBytes { CRC32C.checksum($0) }
        writer.appendLittleEndian(sum)
        return writer.bytes
    }

    /// One packed column of a row: its frame and where its bits start.
    private struct Column {
        let frame: PackedColumn
        let offset: Int
    }

    /// A checked row's header: where its bitmaps, columns and explicit fields are.
    private struct Layout {
        let bytes: UnsafeRawBufferPointer
        let exponent: Int
        let power: Double
        let touched: SlotBitmap
        let crossed: SlotBitmap
        let explicit: SlotBitmap
        let counts: Column
        let starts: Column
        let integers: Column
        let befores: Column
        let durations: Column
        /// Where the explicit slots' fields start.
        let explicitFields: Int

        /// Checks `row` and reads its header.
        init(_ row: UnsafeRawBufferPointer) throws(RowDamage) {
            let fixed = 3 + slotBitmapSize + boundaryBitmapSize
            guard row.count >= fixed + 4, let (body, stored) = row.splittingTrailingChecksum()
            else {
                throw RowDamage(reason: "\(row.count) bytes is too short for a rollup row")
            }
            bytes = body
            guard bytes[0] == version else {
                throw RowDamage(reason: "unknown rollup row layout \(bytes[0])")
            }
            guard CRC32C.checksum(bytes) == stored else {
                throw RowDamage(reason: "rollup checksum mismatch")
            }
            exponent = Int(bytes[1])
            guard exponent <= DecimalScale.maximumExponent else {
                throw RowDamage(reason: "invalid exponent \(exponent)")
            }
            let hasExplicit = bytes[2] == 1
            guard bytes[2] <= 1, bytes.count >= fixed + (hasExplicit ? slotBitmapSize : 0) else {
                throw RowDamage(reason: "invalid rollup flags")
            }
            power = DecimalScale.powers[exponent]
            touched = SlotBitmap(bytes, at: 3, bits: DayRollup.slotCount)
            crossed = SlotBitmap(bytes, at: 3 + slotBitmapSize, bits: DayRollup.slotCount + 1)
            explicit =
                hasExplicit ? SlotBitmap(bytes, at: fixed, bits: DayRollup.slotCount) : SlotBitmap()
            guard explicit.isSubset(of: touched) else {
                throw RowDamage(reason: "an explicit slot that is not touched")
            }
            var reader = ByteReader(bytes, offset: fixed + (hasExplicit ? slotBitmapSize : 0))
            do {
                func header() throws -> PackedColumn {
                    guard let frame = try PackedColumn.readHeader(&reader) else {
                        throw RowDamage(reason: "a column wider than 64 bits")
                    }
                    return frame
                }
                let frames = (try header(), try header(), try header(), try header(), try header())
                func column(_ frame: PackedColumn, length: Int) throws -> Column {
                    let column = Column(frame: frame, offset: reader.offset)
                    try reader.skip(frame.byteCount(of: length))
                    return column
                }
                counts = try column(frames.0, length: touched.count)
                starts = try column(frames.1, length: touched.count)
                integers = try column(frames.2, length: crossed.count)
                befores = try column(frames.3, length: crossed.count)
                durations = try column(frames.4, length: crossed.count)
            } catch {
                throw RowDamage(readError: error)
            }
            explicitFields = reader.offset
        }

        /// The stored fields of the crossing at `index` (in boundary order), checked.
        @inline(__always)
        func crossingFields(at index: Int) throws(RowDamage) -> (
            integer: Int64, before: Int64, duration: Int64
        ) {
            let crossing = self.crossing(at: index)
            guard crossing.isValid else { throw Self.outsideItsSample }
            return (crossing.integer, crossing.before, crossing.duration)
        }

        /// The stored fields of the crossing at `index` (in boundary order), and whether they
        /// are valid: a time before the boundary inside the sample. Not throwing, so a row's
        /// crossings are read in a loop that checks them all once at its end.
        ///
        /// Inlined for certain where the compiler can (`@inline(always)`, Swift 6.3):
        /// `@inline(__always)` alone left a call here, a fifth of a quarter-hour zone's query.
        #if compiler(>=6.3)
            @inline(always)
        #else
            @inline(__always)
        #endif
        func crossing(at index: Int) -> (
            integer: Int64, before: Int64, duration: Int64, isValid: Bool
        ) {
            let before = befores.frame.value(at: index, offset: befores.offset, in: bytes)
            let duration = durations.frame.value(at: index, offset: durations.offset, in: bytes)
            return (
                integers.frame.value(at: index, offset: integers.offset, in: bytes), before,
                duration, before > 0 && duration > before
            )
        }

        /// The damage of a crossing whose time before the boundary is outside its sample.
        static let outsideItsSample = RowDamage(reason: "a crossing outside its sample")
    }

    /// Checks a row and calls `body(exponent, 10^exponent, slot, count, startInteger,
    /// escaping, shares)` for each touched slot of `slots`, in order, reading no field of
    /// the slots before them but the explicit ones' (a few bytes each, when any).
    @inline(__always)
    static func parse(
        _ row: UnsafeRawBufferPointer, slots: Range<Int> = 0..<DayRollup.slotCount,
        _ body: (Int, Double, Int, UInt32, Int64, Int64, Double) -> Void
    ) throws(RowDamage) {
        try parse(try Layout(row), slots: slots, body)
    }

    /// ``parse(_:slots:_:)`` of a row whose header is read.
    ///
    /// A slot's shares are `(0.0 + entering) + leaving`, an absent crossing adding `+0.0`:
    /// the same bits as ``slotShares(entering:leaving:)``, since a sum that starts at `+0.0`
    /// is never `-0.0` and adding `+0.0` to anything else changes nothing. The crossings'
    /// fields and the counts are checked once, after the loop (a damaged row is refused
    /// whole), so nothing in the loop throws but a truncated explicit slot.
    @inline(__always)
    private static func parse(
        _ layout: Layout, slots: Range<Int>,
        _ body: (Int, Double, Int, UInt32, Int64, Int64, Double) -> Void
    ) throws(RowDamage) {
        let bytes = layout.bytes
        let power = layout.power
        var reader = ByteReader(bytes, offset: layout.explicitFields)
        let firstSlot = max(0, min(slots.lowerBound, DayRollup.slotCount))
        let endSlot = max(firstSlot, min(slots.upperBound, DayRollup.slotCount))
        var crossingsValid = true
        var countsValid = true
        do {
            for _ in 0..<layout.explicit.rank(of: firstSlot) {
                try reader.skipVarint()
                try reader.skip(8)
            }
            var index = layout.touched.rank(of: firstSlot)
            // The crossings are read in boundary order, each once: its integer and two shares.
            var crossingIndex = layout.crossed.rank(of: firstSlot)
            var entering = 0.0
            if layout.crossed.contains(firstSlot) {
                let crossing = layout.crossing(at: crossingIndex)
                crossingsValid = crossing.isValid
                entering =
                    shares(
                        integer: crossing.integer, before: crossing.before,
                        duration: crossing.duration, power: power
                    ).entering
                crossingIndex += 1
            }
            for slot in firstSlot..<endSlot {
                var leavingInteger: Int64 = 0
                var leaving = 0.0
                var nextEntering = 0.0
                if layout.crossed.contains(slot + 1) {
                    let crossing = layout.crossing(at: crossingIndex)
                    crossingsValid = crossingsValid && crossing.isValid
                    leavingInteger = crossing.integer
                    (leaving, nextEntering) = shares(
                        integer: crossing.integer, before: crossing.before,
                        duration: crossing.duration, power: power)
                    crossingIndex += 1
                }
                defer { entering = nextEntering }
                guard layout.touched.contains(slot) else { continue }
                let count = layout.counts.frame.value(
                    at: index, offset: layout.counts.offset, in: bytes)
                let start = layout.starts.frame.value(
                    at: index, offset: layout.starts.offset, in: bytes)
                index += 1
                countsValid = countsValid && count >= 0 && count <= Int64(UInt32.max)
                if layout.explicit.contains(slot) {
                    let escaping = try reader.readZigZag()
                    let shares = try reader.readDouble()
                    body(
                        layout.exponent, power, slot, UInt32(truncatingIfNeeded: count), start,
                        escaping, shares)
                } else {
                    body(
                        layout.exponent, power, slot, UInt32(truncatingIfNeeded: count), start,
                        leavingInteger, (0.0 + entering) + leaving)
                }
            }
            guard reader.remaining == 0 || endSlot < DayRollup.slotCount else {
                throw RowDamage(reason: "trailing bytes after the last slot")
            }
        } catch {
            throw RowDamage(readError: error)
        }
        guard crossingsValid else { throw Layout.outsideItsSample }
        guard countsValid else { throw RowDamage(reason: "start count out of range") }
    }

    /// Reads a stored row back into the rollup it was encoded from (the `Double` sums of
    /// the exact form left at zero, as ``RollupRowCodec`` leaves them).
    static func decode(_ row: UnsafeRawBufferPointer, day: Int64) throws(RowDamage)
        -> DayRollup
    {
        let layout = try Layout(row)
        var rollup = DayRollup(day: day, kind: .cumulative)
        rollup.exponent = layout.exponent
        try parse(layout, slots: 0..<DayRollup.slotCount) {
            _, _, slot, count, start, escaping, shares in
            rollup.touched[slot] = true
            rollup.startCounts[slot] = count
            rollup.startIntegers[slot] = start
            rollup.escapingIntegers[slot] = escaping
            rollup.shares[slot] = shares
        }
        var index = 0
        for boundary in 0...DayRollup.slotCount where layout.crossed.contains(boundary) {
            let fields = try layout.crossingFields(at: index)
            rollup.crossings.append(
                SlotCrossing(
                    boundary: boundary, integer: fields.integer, before: fields.before,
                    duration: fields.duration))
            index += 1
        }
        return rollup
    }
}
