import LMDB

/// The hour summaries (``DayHours``) of one series over a set of UTC days: what whole-hour
/// spans read instead of four rollup slots each. Days without a summary read as empty,
/// like days without a rollup row.
///
/// Each wanted day's segment is checked once and copied as it is stored; hours are read
/// from the copy when asked for, so a query pays for the figures it uses.
struct HourRows {
    private var index: DayRowIndex
    let kind: SeriesKind
    /// The checked segments, one after another.
    private var segments: [UInt8] = []
    /// Where each loaded day's segment starts in `segments` (and, next, ends).
    private var bounds: [Int] = [0]

    /// Loads the summaries of `days` (sorted, unique) for `record` from `database`: one
    /// cursor walk over the rows holding them when they are dense, a lookup per row when
    /// they are sparse. Only the wanted days' segments are checked.
    init<T: ReadableTransaction & ~Copyable>(
        database: Database, record: SeriesRecord, days: [Int64], txn: borrowing T
    ) throws {
        kind = record.kind
        let wanted = DayRowIndex(days: days)
        index = wanted
        var groups: [Int64] = []
        for day in days {
            let group = HourSummaryCodec.group(ofDay: day, kind: record.kind)
            if groups.last != group { groups.append(group) }
        }
        guard let firstGroup = groups.first, let lastGroup = groups.last else { return }
        bounds.reserveCapacity(days.count + 1)
        // A cursor step costs a tenth of a lookup's descent: walk unless the rows are sparse.
        if groups.count * 4 >= Int(lastGroup - firstGroup + 1) {
            try txn.withCursor(database) { cursor in
                try cursor.forEach(from: StorageKey.make(series: record.id, index: firstGroup)) {
                    key, value in
                    guard let parsed = StorageKey.parse(key), parsed.series == record.id,
                        parsed.index <= lastGroup
                    else { return false }
                    try Self.read(value, group: parsed.index, record: record, wanted, into: &self)
                    return true
                }
            }
        } else {
            for group in groups {
                try StorageKey.make(series: record.id, index: group).withUnsafeBytes { key in
                    _ = try txn.withValue(forKey: key, in: database) {
                        try Self.read($0, group: group, record: record, wanted, into: &self)
                    }
                }
            }
        }
    }

    /// Copies the checked segments of the wanted days of one stored row into `rows`.
    private static func read(
        _ row: UnsafeRawBufferPointer, group: Int64, record: SeriesRecord, _ wanted: DayRowIndex,
        into rows: inout HourRows
    ) throws {
        do {
            try HourSummaryCodec.forEachSegment(
                row, series: record.id, group: group, kind: record.kind, isWanted: wanted.isWanted
            ) { day, segment in
                rows.index.set(day, row: rows.bounds.count - 1)
                rows.segments.append(contentsOf: segment)
                rows.bounds.append(rows.segments.count)
            }
        } catch {
            throw StoreError.damagedRollup(
                series: record.name,
                dayStart: group * HourSummaryCodec.daysPerRow(record.kind) * TimeGrid.day,
                reason: error.reason)
        }
    }

    /// Calls `body` with the segment of UTC day `day`, or returns `nil` when it has none.
    @inline(__always)
    private func withSegment<R>(ofDay day: Int64, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        guard let row = index.row(ofDay: day) else { return nil }
        return segments.withUnsafeBytes { bytes in
            body(UnsafeRawBufferPointer(rebasing: bytes[bounds[row]..<bounds[row + 1]]))
        }
    }

    /// The figures of the UTC hour starting at `start` (on the hour; empty when it has no data).
    @inline(__always)
    func figures(ofHourStarting start: Int64) -> RunFigures {
        let day = start.floorDivided(by: TimeGrid.day)
        let hour = Int((start - day * TimeGrid.day) / TimeGrid.hour)
        return withSegment(ofDay: day) { segment in
            HourSummaryCodec.hours(of: segment) & (1 << UInt32(hour)) == 0
                ? RunFigures()
                : HourSummaryCodec.figures(ofHour: hour, in: segment, day: day, kind: kind)
        } ?? RunFigures()
    }

    /// Adds the whole UTC hours of `[from, to)` (both on the hour) to `figures`, in time
    /// order: the additions of one run per hour, without forming the runs.
    @inline(__always)
    func add(hoursFrom from: Int64, to: Int64, into figures: inout RunFigures) {
        var dayStart = from.floorDivided(by: TimeGrid.day) * TimeGrid.day
        while dayStart < to {
            let day = dayStart / TimeGrid.day
            let first = Int((max(from, dayStart) - dayStart) / TimeGrid.hour)
            let last = Int((min(to, dayStart + TimeGrid.day) - dayStart) / TimeGrid.hour)
            dayStart += TimeGrid.day
            withSegment(ofDay: day) { segment in
                // The hours with data in `first..<last`, lowest first.
                var hours =
                    HourSummaryCodec.hours(of: segment) & ((1 << UInt32(last)) - 1)
                    & ~((1 << UInt32(first)) - 1)
                while hours != 0 {
                    let hour = hours.trailingZeroBitCount
                    hours &= hours - 1
                    figures.add(
                        HourSummaryCodec.figures(ofHour: hour, in: segment, day: day, kind: kind),
                        kind: kind)
                }
            }
        }
    }
}
