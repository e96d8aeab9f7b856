/// Encodes hour summaries (``DayHours``) into the rows of the `hours` database (format 1,
/// row version 1) and reads them back without allocating.
///
/// A row holds one series' summaries of ``daysPerRow(_:)`` consecutive UTC days (key
/// `series ‖ group`, ``StorageKey/make(series:index:)``, group = day ÷ days per row), so a
/// dense row fills one LMDB page and a year is a few dozen rows. Layout: version (1 byte,
/// 1); kind (1 byte: 0 cumulative, 1 discrete); then one segment per day with data, in
/// day order:
///
/// - the day's offset in the group (1 byte);
/// - the entries with data (`UInt32`, bit `h` for entry `h` of ``DayHours``: the summary
///   hour `h` of the day, or bit 24 for its head in a store with an ``HourPhase``; bit 31:
///   counts and durations are 8 bytes wide instead of 4);
/// - per entry with data, in bit order: the count; the sum; for a discrete series the
///   minimum, the maximum, the latest sample's start as milliseconds after the entry's
///   start (`UInt32`), its duration and its value;
/// - the CRC-32C of the series id (`UInt32`), the day (`Int64`) and the segment's bytes
///   before the checksum, so a segment read under the wrong key fails too.
///
/// Integers are little-endian, values `Float64` bits. Each segment is checked alone, so a
/// query pays for the days it reads, not the row.
enum HourSummaryCodec {
    static let version: UInt8 = 1
    private static let wideFlag: UInt32 = 1 << 31
    private static let hoursMask: UInt32 = (1 << UInt32(DayHours.entryCount)) - 1
    private static let headBit: UInt32 = 1 << UInt32(HourPhase.headEntry)

    /// Days per row: as many dense days as fit one overflow page (4,080 bytes).
    static func daysPerRow(_ kind: SeriesKind) -> Int64 {
        switch kind {
        case .cumulative: return 13  // 297 bytes a dense day
        case .discrete: return 3  // 1,065 bytes a dense day
        }
    }

    /// The first UTC day of group `group`, or `nil` when its days lie beyond
    /// ``TimeGrid/representableDays`` (a damaged key's group may be any number).
    static func firstDay(ofGroup group: Int64, kind: SeriesKind) -> Int64? {
        let days = daysPerRow(kind)
        let range = TimeGrid.representableDays
        guard group >= range.lowerBound / days, group <= range.upperBound / days - 1 else {
            return nil
        }
        return group * days
    }

    /// The group (row) holding `day`.
    @inline(__always)
    static func group(ofDay day: Int64, kind: SeriesKind) -> Int64 {
        day.floorDivided(by: daysPerRow(kind))
    }

    /// Where the segment of `day` of series `series` lives: the key of its hour row and its
    /// offset in that row's group.
    static func location(ofDay day: Int64, series: UInt32, kind: SeriesKind) -> (
        rowKey: [UInt8], offset: UInt8
    ) {
        (
            StorageKey.make(series: series, index: group(ofDay: day, kind: kind)),
            UInt8(day.floorModulo(daysPerRow(kind)))
        )
    }

    /// The bytes of one hour's entry.
    @inline(__always)
    static func entrySize(_ kind: SeriesKind, wide: Bool) -> Int {
        let integer = wide ? 8 : 4
        switch kind {
        case .cumulative: return integer + 8
        case .discrete: return integer + 8 * 3 + 4 + integer + 8
        }
    }

    // MARK: Writing

    /// The segment of `summary` for `day` of series `series`, or `nil` when no hour has data.
    static func segment(_ summary: DayHours, day: Int64, series: UInt32) -> [UInt8]? {
        var present: UInt32 = 0
        var wide = false
        for (hour, figures) in summary.hours.enumerated() where figures.hasData {
            present |= 1 << UInt32(hour)
            let duration = figures.latest.endMilliseconds - figures.latest.startMilliseconds
            if figures.count > UInt32.max || (summary.kind == .discrete && duration > UInt32.max) {
                wide = true
            }
        }
        guard present != 0 else { return nil }
        let kind = summary.kind
        var writer = ByteWriter(capacity: 9 + present.nonzeroBitCount * entrySize(kind, wide: wide))
        writer.append(UInt8(day.floorModulo(daysPerRow(kind))))
        writer.appendLittleEndian(present | (wide ? wideFlag : 0))
        for (hour, figures) in summary.hours.enumerated() where figures.hasData {
            appendInteger(figures.count, wide: wide, to: &writer)
            writer.appendDouble(figures.sum)
            if kind == .discrete {
                let hourStart = summary.phase.start(ofEntry: hour, day: day)
                writer.appendDouble(figures.minimum)
                writer.appendDouble(figures.maximum)
                writer.appendLittleEndian(UInt32(figures.latest.startMilliseconds - hourStart))
                appendInteger(
                    UInt64(figures.latest.endMilliseconds - figures.latest.startMilliseconds),
                    wide: wide, to: &writer)
                writer.appendDouble(figures.latest.value)
            }
        }
        writer.appendLittleEndian(checksum(of: writer.bytes, series: series, day: day))
        return writer.bytes
    }

    private static func appendInteger(_ value: UInt64, wide: Bool, to writer: inout ByteWriter) {
        if wide {
            writer.appendLittleEndian(value)
        } else {
            writer.appendLittleEndian(UInt32(value))
        }
    }

    /// A row of `kind` holding `segments` (sorted by their day offset), or `nil` when there are none.
    static func row(kind: SeriesKind, segments: [[UInt8]]) -> [UInt8]? {
        guard !segments.isEmpty else { return nil }
        var row: [UInt8] = [version, kind == .cumulative ? 0 : 1]
        row.reserveCapacity(2 + segments.reduce(0) { $0 + $1.count })
        for segment in segments { row.append(contentsOf: segment) }
        return row
    }

    /// The segments of a stored row by day offset, unchecked (a writer replacing some days
    /// keeps the others' bytes as they are); a row that does not parse yields the segments
    /// before the damage.
    static func segments(of row: UnsafeRawBufferPointer, kind: SeriesKind) -> [UInt8: [UInt8]] {
        var result: [UInt8: [UInt8]] = [:]
        guard row.count >= 2, row[0] == version else { return result }
        var offset = 2
        while let length = segmentLength(row, at: offset, kind: kind) {
            result[row[offset]] = Array(row[offset..<(offset + length)])
            offset += length
        }
        return result
    }

    // MARK: Reading

    /// Calls `body(day, segment)` with the checked segment of each day of `row` (group
    /// `group` of series `series`, hours of `phase`) that `isWanted`; read its hours with
    /// ``add(hours:of:day:phase:kind:into:)`` or ``forEachSum(in:kind:_:)``.
    @inline(__always)
    static func forEachSegment(
        _ row: UnsafeRawBufferPointer, series: UInt32, group: Int64, kind: SeriesKind,
        phase: HourPhase, isWanted: (Int64) -> Bool,
        _ body: (Int64, UnsafeRawBufferPointer) -> Void
    ) throws(RowDamage) {
        guard row.count >= 2, row[0] == version else {
            throw RowDamage(
                reason: row.isEmpty
                    ? "empty hour summary" : "unknown hour summary version \(row[0])")
        }
        guard row[1] == (kind == .cumulative ? 0 : 1) else {
            throw RowDamage(reason: "hour summary of the other series kind")
        }
        let days = daysPerRow(kind)
        var offset = 2
        while offset < row.count {
            guard let length = segmentLength(row, at: offset, kind: kind),
                Int64(row[offset]) < days
            else {
                throw RowDamage(reason: "hour summary segment cut short")
            }
            let day = group * days + Int64(row[offset])
            if isWanted(day) {
                let segment = UnsafeRawBufferPointer(rebasing: row[offset..<(offset + length)])
                try check(segment, series: series, day: day, kind: kind, phase: phase)
                body(day, segment)
            }
            offset += length
        }
    }

    /// Checks a segment's checksum, that it has a head only in a store with a phase, and
    /// that its latest samples' ends are instants.
    private static func check(
        _ segment: UnsafeRawBufferPointer, series: UInt32, day: Int64, kind: SeriesKind,
        phase: HourPhase
    ) throws(RowDamage) {
        guard let (checked, stored) = segment.splittingTrailingChecksum(),
            checksum(of: checked, series: series, day: day) == stored
        else {
            throw RowDamage(reason: "hour summary checksum mismatch")
        }
        let (present, wide, size) = layout(of: segment, kind: kind)
        guard phase != .utc || present & headBit == 0 else {
            throw RowDamage(reason: "hour summary with a head in UTC hours")
        }
        // A 4-byte duration (under 50 days) ends far inside Int64 from any instant a query
        // reads (SampleRules.instantRange): only 8-byte ones need looking at.
        guard kind == .discrete, wide else { return }
        var hours = present
        var offset = 5
        while hours != 0 {
            let hour = hours.trailingZeroBitCount
            hours &= hours - 1
            let start = phase.start(ofEntry: hour, day: day)
            var field = offset + (wide ? 8 : 4) + 8 * 3 + 4
            let duration = integer(segment, at: &field, wide: wide)
            guard duration <= UInt64(Int64.max - TimeGrid.hour - max(start, 0)) else {
                throw RowDamage(reason: "hour summary duration out of range")
            }
            offset += size
        }
    }

    /// A segment's header (at `offset` of `bytes`): its hours with data (bit `h` for hour
    /// `h`), whether counts and durations are 8 bytes wide, and the size of an entry.
    @inline(__always)
    private static func layout(
        of bytes: UnsafeRawBufferPointer, at offset: Int = 0, kind: SeriesKind
    ) -> (hours: UInt32, wide: Bool, entrySize: Int) {
        let header = bytes.littleEndian(at: offset + 1, as: UInt32.self)
        let wide = header & wideFlag != 0
        return (header & hoursMask, wide, entrySize(kind, wide: wide))
    }

    /// The hours with data of a checked segment (bit `h` for hour `h`).
    @inline(__always)
    static func hours(of segment: UnsafeRawBufferPointer) -> UInt32 {
        layout(of: segment, kind: .cumulative).hours
    }

    /// Calls `body(hour, sum)` for each hour with data of a checked segment, lowest first:
    /// what a cumulative day curve needs of a day, without the rest of each entry.
    @inline(__always)
    static func forEachSum(
        in segment: UnsafeRawBufferPointer, kind: SeriesKind, _ body: (Int, Double) -> Void
    ) {
        let (present, wide, size) = layout(of: segment, kind: kind)
        var hours = present
        var offset = 5 + (wide ? 8 : 4)
        while hours != 0 {
            let hour = hours.trailingZeroBitCount
            hours &= hours - 1
            body(hour, double(segment, at: &offset))
            offset += size - 8
        }
    }

    /// The sum of entry `entry` of a checked segment, or `nil` when it has no data.
    @inline(__always)
    static func sum(ofEntry entry: Int, in segment: UnsafeRawBufferPointer, kind: SeriesKind)
        -> Double?
    {
        let (present, wide, size) = layout(of: segment, kind: kind)
        let bit: UInt32 = 1 << UInt32(entry)
        guard present & bit != 0 else { return nil }
        var offset = 5 + (present & (bit - 1)).nonzeroBitCount * size + (wide ? 8 : 4)
        return double(segment, at: &offset)
    }

    /// Adds the entries in `run` of the checked segment of UTC day `day` (hours of `phase`)
    /// to `figures`, in entry order. `run` is the segment's entries with data within a
    /// range of entries (``hours(of:)`` masked), so they lie one after another; add a head
    /// alone, before the day's other entries.
    ///
    /// The same additions, in the same order, as adding each hour's figures with
    /// ``RunFigures/add(_:kind:)``, but one walk over the entries, reading the latest sample
    /// of the last hour only: it is the run's latest, each hour's starting later. A run of
    /// one hour added to empty figures reads that hour.
    @inline(__always)
    static func add(
        hours run: UInt32, of segment: UnsafeRawBufferPointer, day: Int64, phase: HourPhase,
        kind: SeriesKind, into figures: inout RunFigures
    ) {
        guard run != 0 else { return }
        let (present, wide, size) = layout(of: segment, kind: kind)
        let first = UInt32(run.trailingZeroBitCount)
        var offset = 5 + (present & ((1 << first) - 1)).nonzeroBitCount * size
        let entries = run.nonzeroBitCount
        switch kind {
        case .cumulative:
            for _ in 0..<entries {
                var at = offset
                let count = integer(segment, at: &at, wide: wide)
                figures.addProrated(double(segment, at: &at), count: count, touched: true)
                offset += size
            }
        case .discrete:
            let hadData = figures.hasData
            for _ in 0..<entries {
                var at = offset
                let count = integer(segment, at: &at, wide: wide)
                let sum = double(segment, at: &at)
                let minimum = double(segment, at: &at)
                figures.addMembers(
                    count: count, sum: sum, minimum: minimum, maximum: double(segment, at: &at))
                offset += size
            }
            var at = offset - size + (wide ? 8 : 4) + 24
            let last = 31 - run.leadingZeroBitCount
            // Checked by `check`: the end is an instant.
            let start =
                phase.start(ofEntry: last, day: day)
                + Int64(integer(segment, at: &at, wide: false))
            let duration = Int64(integer(segment, at: &at, wide: wide))
            figures.offerLatest(
                Sample(
                    startMilliseconds: start, endMilliseconds: start + duration,
                    value: double(segment, at: &at)),
                hadData: hadData)
        }
    }

    /// The length of the segment at `offset`, or `nil` when the row ends before it does (or at `offset`).
    private static func segmentLength(
        _ row: UnsafeRawBufferPointer, at offset: Int, kind: SeriesKind
    )
        -> Int?
    {
        guard offset + 5 <= row.count else { return nil }
        let (hours, _, size) = layout(of: row, at: offset, kind: kind)
        let length = 9 + hours.nonzeroBitCount * size
        return offset + length <= row.count ? length : nil
    }

    @inline(__always)
    private static func integer(_ bytes: UnsafeRawBufferPointer, at offset: inout Int, wide: Bool)
        -> UInt64
    {
        defer { offset += wide ? 8 : 4 }
        return wide
            ? bytes.littleEndian(at: offset, as: UInt64.self)
            : UInt64(
                bytes.littleEndian(at: offset, as: UInt32.self))
    }

    @inline(__always)
    private static func double(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Double {
        defer { offset += 8 }
        return Double(
            bitPattern: bytes.littleEndian(at: offset, as: UInt64.self))
    }

    /// The checksum of a segment's bytes, bound to its series and day.
    private static func checksum(of bytes: UnsafeRawBufferPointer, series: UInt32, day: Int64)
        -> UInt32
    {
        let seed = withUnsafeTemporaryAllocation(byteCount: 12, alignment: 8) { prefix in
            prefix.storeBytes(of: series.littleEndian, toByteOffset: 0, as: UInt32.self)
            prefix.storeBytes(of: day.littleEndian, toByteOffset: 4, as: Int64.self)
            return CRC32C.checksum(UnsafeRawBufferPointer(prefix))
        }
        return CRC32C.checksum(bytes, continuing: seed)
    }

    private static func checksum(of bytes: [UInt8], series: UInt32, day: Int64) -> UInt32 {
        bytes.withUnsafeBytes { checksum(of: $0, series: series, day: day) }
    }
}
