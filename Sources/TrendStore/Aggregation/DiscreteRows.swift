import LMDB

/// The decoded rollup rows of a discrete series over a range of UTC days, in flat arrays
/// of 96 slots per row: per slot the count, sum, minimum, maximum and latest sample of the
/// samples starting in it. Missing rows read as empty.
struct DiscreteRows {
    private var index: DayRowIndex
    private(set) var counts: [UInt32] = []
    private(set) var sums: [Double] = []
    private(set) var minimums: [Double] = []
    private(set) var maximums: [Double] = []
    private(set) var latest: [Sample] = []

    /// Loads the rows of `days` (sorted, unique) for `record`.
    init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days: [Int64], txn: borrowing T
    ) throws {
        let wanted = DayRowIndex(days: days)
        index = wanted
        try RollupRows.forEachFormatTwoRow(
            storage: storage, record: record, days: days, isWanted: wanted.isWanted, txn: txn
        ) { day, row in
            try self.append(row, day: day, record: record)
        }
    }

    private mutating func append(_ row: UnsafeRawBufferPointer, day: Int64, record: SeriesRecord)
        throws
    {
        let base = counts.count
        let slots = DayRollup.slotCount
        counts.append(contentsOf: repeatElement(0, count: slots))
        sums.append(contentsOf: repeatElement(0, count: slots))
        minimums.append(contentsOf: repeatElement(0, count: slots))
        maximums.append(contentsOf: repeatElement(0, count: slots))
        latest.append(
            contentsOf: repeatElement(
                Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0), count: slots))
        do {
            try RollupRowCodec.forEachDiscreteSlot(row, day: day) { slot, count, sum, extremes in
                counts[base + slot] = count
                sums[base + slot] = sum
                minimums[base + slot] = extremes.minimum
                maximums[base + slot] = extremes.maximum
                latest[base + slot] = extremes.latest
            }
        } catch {
            throw StoreError.damagedRollup(
                series: record.name, dayStart: day * TimeGrid.day, reason: error.reason)
        }
        index.set(day, row: base / slots)
    }

    /// The offset of `day`'s first slot in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func base(ofDay day: Int64) -> Int? { index.base(ofDay: day) }
}
