import LMDB

/// The hour summaries (``DayHours``) of one series over a set of UTC days, in flat arrays
/// of 24 hours per day: what whole-hour spans read instead of four rollup slots each.
/// Days without a summary read as empty, like days without a rollup row.
struct HourRows {
    private var index: DayRowIndex
    let kind: SeriesKind
    /// Bit `h` of a day's entry: hour `h` has data.
    private(set) var present: [UInt32] = []
    private(set) var counts: [UInt64] = []
    private(set) var sums: [Double] = []
    /// Discrete only: per hour the smallest and largest value and the latest sample.
    private(set) var minimums: [Double] = []
    private(set) var maximums: [Double] = []
    private(set) var latest: [Sample] = []

    /// Loads the summaries of `days` (sorted, unique) for `record` from `database`: one
    /// cursor walk over the rows holding them when they are dense, a lookup per row when
    /// they are sparse. Only the wanted days' segments are checked and decoded.
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
        let reserve = days.count * DayHours.hourCount
        counts.reserveCapacity(reserve)
        sums.reserveCapacity(reserve)
        present.reserveCapacity(days.count)
        func read(_ group: Int64, _ row: UnsafeRawBufferPointer) throws {
            do {
                try HourSummaryCodec.forEachHour(
                    row, series: record.id, group: group, kind: record.kind,
                    isWanted: wanted.isWanted
                ) { day, hour, figures in
                    add(figures, day: day, hour: hour)
                }
            } catch {
                throw StoreError.damagedRollup(
                    series: record.name,
                    dayStart: group * HourSummaryCodec.daysPerRow(record.kind) * TimeGrid.day,
                    reason: error.reason)
            }
        }
        // A cursor step costs a tenth of a lookup's descent: walk unless the rows are sparse.
        if groups.count * 4 >= Int(lastGroup - firstGroup + 1) {
            try txn.withCursor(database) { cursor in
                try cursor.forEach(from: StorageKey.make(series: record.id, index: firstGroup)) {
                    key, value in
                    guard let parsed = StorageKey.parse(key), parsed.series == record.id,
                        parsed.index <= lastGroup
                    else { return false }
                    try read(parsed.index, value)
                    return true
                }
            }
        } else {
            for group in groups {
                try StorageKey.make(series: record.id, index: group).withUnsafeBytes { key in
                    _ = try txn.withValue(forKey: key, in: database) { try read(group, $0) }
                }
            }
        }
    }

    private mutating func add(_ figures: SlotRunFigures, day: Int64, hour: Int) {
        let row: Int
        if let known = index.row(ofDay: day) {
            row = known
        } else {
            row = present.count
            index.set(day, row: row)
            present.append(0)
            counts.append(contentsOf: repeatElement(0, count: DayHours.hourCount))
            sums.append(contentsOf: repeatElement(0, count: DayHours.hourCount))
            if kind == .discrete {
                minimums.append(contentsOf: repeatElement(0, count: DayHours.hourCount))
                maximums.append(contentsOf: repeatElement(0, count: DayHours.hourCount))
                latest.append(
                    contentsOf: repeatElement(
                        Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0),
                        count: DayHours.hourCount))
            }
        }
        let slot = row * DayHours.hourCount + hour
        present[row] |= 1 << UInt32(hour)
        counts[slot] = figures.count
        sums[slot] = figures.sum
        if kind == .discrete {
            minimums[slot] = figures.minimum
            maximums[slot] = figures.maximum
            latest[slot] = figures.latest
        }
    }

    /// The figures of hour `hour` of UTC day `day` (empty when it has no data).
    @inline(__always)
    func figures(day: Int64, hour: Int) -> SlotRunFigures {
        guard let row = index.row(ofDay: day), present[row] & (1 << UInt32(hour)) != 0 else {
            return SlotRunFigures()
        }
        let slot = row * DayHours.hourCount + hour
        var figures = SlotRunFigures()
        figures.hasData = true
        figures.count = counts[slot]
        figures.sum = sums[slot]
        if kind == .discrete {
            figures.minimum = minimums[slot]
            figures.maximum = maximums[slot]
            figures.latest = latest[slot]
        }
        return figures
    }
}
