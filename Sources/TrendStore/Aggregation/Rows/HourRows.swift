import LMDB

/// The hour summaries (``DayHours``) of one series over a set of UTC days: what whole
/// summary hours (UTC hours, or hours of the store's ``HourPhase``) read instead of four
/// rollup slots each. Days without a summary read as empty, like days without a rollup row.
///
/// Each wanted day's segment is checked once and read where it lies in the transaction's
/// pages, never copied (an encrypted store's opened rows are kept alive with them), so the
/// rows exist only inside
/// ``withRows(from:record:days:txn:_:)``; hours are read when asked for, so a query
/// pays for the figures it uses.
struct HourRows {
    private var index: DayRowIndex
    let kind: SeriesKind
    /// Where the summary hours begin within UTC hours.
    let phase: HourPhase
    /// The checked segments in the transaction's pages, by row number of ``index``.
    private var segments: [UnsafeRawBufferPointer] = []
    /// In an encrypted store, the opened rows the segments point into.
    private var owners: [OpenedPlaintext] = []

    /// Calls `body` with the summaries of `days` (sorted, unique) for `record` in
    /// `storage`, or with `nil` when `storage` is `nil` (the caller reads no summaries). The
    /// rows point into `txn`'s pages: `body` must not keep them.
    static func withRows<T: ReadableTransaction & ~Copyable, R>(
        from storage: SampleStorage?, record: SeriesRecord, days: [Int64], txn: borrowing T,
        _ body: (HourRows?) throws -> R
    ) throws -> R {
        guard let storage else { return try body(nil) }
        return try body(HourRows(storage: storage, record: record, days: days, txn: txn))
    }

    /// Loads the summaries; only the wanted days' segments are checked.
    private init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days: [Int64], txn: borrowing T
    ) throws {
        kind = record.kind
        phase = storage.hourPhase
        let wanted = DayRowIndex(days: days)
        index = wanted
        var groups: [Int64] = []
        for day in days {
            let group = HourSummaryCodec.group(ofDay: day, kind: record.kind)
            if groups.last != group { groups.append(group) }
        }
        segments.reserveCapacity(days.count)
        try storage.forEachHourSummaryRow(of: record, groups: groups, in: txn) {
            group, row, owner in
            if let owner { owners.append(owner) }
            try Self.read(row, group: group, record: record, wanted, into: &self)
        }
    }

    /// Records where the checked segments of the wanted days of one stored row lie.
    private static func read(
        _ row: UnsafeRawBufferPointer, group: Int64, record: SeriesRecord, _ wanted: DayRowIndex,
        into rows: inout HourRows
    ) throws {
        do {
            try HourSummaryCodec.forEachSegment(
                row, series: record.id, group: group, kind: record.kind, phase: rows.phase,
                isWanted: wanted.isWanted
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

    /// Adds the whole summary hours of `[from, to)` (both summary hour starts) to
    /// `figures`, in time order: the additions of one run per entry, without forming the runs.
    ///
    /// The entries taken are those beginning in `[from, to)`: each lies in one summary hour,
    /// and that hour is inside the range exactly when its entries begin there.
    @inline(__always)
    func add(hoursFrom from: Int64, to: Int64, into figures: inout RunFigures) {
        var day = from.floorDivided(by: TimeGrid.day)
        while day * TimeGrid.day < to {
            let dayStart = day * TimeGrid.day
            let firstHourStart = dayStart + phase.offset
            let first = from <= firstHourStart ? 0 : Int((from - firstHourStart) / TimeGrid.hour)
            let last =
                to <= firstHourStart ? 0 : min(24, Int((to - firstHourStart) / TimeGrid.hour))
            withSegment(ofDay: day) { segment in
                let present = HourSummaryCodec.hours(of: segment)
                if phase != .utc && from <= dayStart {
                    HourSummaryCodec.add(
                        hours: present & Self.headBit, of: segment, day: day, phase: phase,
                        kind: kind, into: &figures)
                }
                HourSummaryCodec.add(
                    hours: present & ((1 << UInt32(last)) - 1) & ~((1 << UInt32(first)) - 1),
                    of: segment, day: day, phase: phase, kind: kind, into: &figures)
            }
            day += 1
        }
    }

    private static let headBit: UInt32 = 1 << UInt32(HourPhase.headEntry)

    /// Writes the sums of the 24 summary hours beginning in UTC day `day` into
    /// `sums[offset..<offset + 24]` (0 for an hour without data) and returns which hours
    /// have data (bit `h` for hour `h`): a whole day read at once, for day curves over many
    /// days. With a phase the last hour ends in the next day's head, so its sum is the
    /// day's last entry's plus that head's.
    @inline(__always)
    func sums(ofDay day: Int64, into sums: inout [Double], at offset: Int) -> UInt32 {
        sums.withUnsafeMutableBufferPointer { sums in
            for hour in 0..<24 { sums[offset + hour] = 0 }
            var present: UInt32 =
                withSegment(ofDay: day) { segment -> UInt32 in
                    HourSummaryCodec.forEachSum(in: segment, kind: kind) { entry, sum in
                        if entry < 24 { sums[offset + entry] = sum }
                    }
                    return HourSummaryCodec.hours(of: segment) & ~Self.headBit
                } ?? 0
            guard phase != .utc else { return present }
            let head = withSegment(ofDay: day + 1) { segment -> Double? in
                HourSummaryCodec.sum(ofEntry: HourPhase.headEntry, in: segment, kind: kind)
            }
            if let head = head ?? nil {
                sums[offset + 23] += head
                present |= 1 << 23
            }
            return present
        }
    }
}
