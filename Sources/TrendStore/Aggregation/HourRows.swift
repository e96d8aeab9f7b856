import LMDB

/// The hour summaries (``DayHours``) of one series over a set of UTC days: what whole-hour
/// spans read instead of four rollup slots each. Days without a summary read as empty,
/// like days without a rollup row.
///
/// Each wanted day's segment is checked once and read where it lies in the transaction's
/// pages, never copied, so the rows exist only inside ``withRows(in:record:days:txn:_:)``;
/// hours are read when asked for, so a query pays for the figures it uses.
struct HourRows {
    private var index: DayRowIndex
    let kind: SeriesKind
    /// The checked segments in the transaction's pages, by row number of ``index``.
    private var segments: [UnsafeRawBufferPointer] = []

    /// Calls `body` with the summaries of `days` (sorted, unique) for `record` from
    /// `database`, or with `nil` when there is no database. The rows point into `txn`'s
    /// pages: `body` must not keep them.
    static func withRows<T: ReadableTransaction & ~Copyable, R>(
        in database: Database?, record: SeriesRecord, days: [Int64], txn: borrowing T,
        _ body: (HourRows?) throws -> R
    ) throws -> R {
        guard let database else { return try body(nil) }
        return try body(HourRows(database: database, record: record, days: days, txn: txn))
    }

    /// Loads the summaries: one cursor walk over the rows holding them when they are dense,
    /// a lookup per row when they are sparse. Only the wanted days' segments are checked.
    private init<T: ReadableTransaction & ~Copyable>(
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
        segments.reserveCapacity(days.count)
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

    /// Records where the checked segments of the wanted days of one stored row lie.
    private static func read(
        _ row: UnsafeRawBufferPointer, group: Int64, record: SeriesRecord, _ wanted: DayRowIndex,
        into rows: inout HourRows
    ) throws {
        do {
            try HourSummaryCodec.forEachSegment(
                row, series: record.id, group: group, kind: record.kind, isWanted: wanted.isWanted
            ) { day, segment in
                rows.index.set(day, row: rows.segments.count)
                rows.segments.append(segment)
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
        return body(segments[row])
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
                HourSummaryCodec.add(
                    hours: HourSummaryCodec.hours(of: segment) & ((1 << UInt32(last)) - 1)
                        & ~((1 << UInt32(first)) - 1),
                    of: segment, day: day, kind: kind, into: &figures)
            }
        }
    }

    /// Writes the sums of the 24 hours of UTC day `day` into `sums[offset..<offset + 24]`
    /// (0 for an hour without data) and returns which hours have data (bit `h` for hour
    /// `h`): a whole day read at once, for day curves over many days.
    @inline(__always)
    func sums(ofDay day: Int64, into sums: inout [Double], at offset: Int) -> UInt32 {
        sums.withUnsafeMutableBufferPointer { sums in
            for hour in 0..<24 { sums[offset + hour] = 0 }
            return withSegment(ofDay: day) { segment in
                HourSummaryCodec.forEachSum(in: segment, kind: kind) { sums[offset + $0] = $1 }
                return HourSummaryCodec.hours(of: segment)
            } ?? 0
        }
    }
}
