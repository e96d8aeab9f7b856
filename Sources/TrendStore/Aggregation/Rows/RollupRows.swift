import LMDB

/// The decoded rollup rows of one series over a range of UTC days, in flat arrays.
///
/// Loaded once per query: by point lookups when few days are needed, by one cursor
/// walk when most of the range is (``SampleStorage/forEachDayRow(of:days:isWanted:in:_:)``).
/// Missing rows read as empty. Of a row only the slots the query covers are decoded (a local day in a zone a quarter-hour off UTC
/// reads half of each of two rows); the others read as empty.
struct RollupRows {
    private var index: DayRowIndex
    private(set) var prorated: [Double] = []
    private(set) var startCounts: [UInt32] = []
    private(set) var startSums: [Double] = []
    private(set) var touched: [Bool] = []
    /// Whether `startCounts` and `startSums` were loaded.
    let includesStarts: Bool

    /// Loads the rows of `days` for `record`.
    init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days daySlots: DaySlots,
        includesStarts: Bool, txn: borrowing T
    ) throws {
        self.includesStarts = includesStarts
        let days = daySlots.days
        let wanted = DayRowIndex(days: days)
        index = wanted
        try storage.forEachDayRow(of: record, days: days, isWanted: wanted.isWanted, in: txn) {
            day, row in
            try self.append(row, day: day, slots: daySlots.slots(ofDay: day), record: record)
        }
    }

    private mutating func append(
        _ bytes: UnsafeRawBufferPointer, day: Int64, slots wanted: Range<Int>,
        record: SeriesRecord
    ) throws {
        let row = prorated.count / DayRollup.slotCount
        let base = prorated.count
        let slots = DayRollup.slotCount
        if prorated.capacity < base + slots {
            // Grow all four together, by half again, so rows append in amortised constant time.
            let capacity = max(base + slots, base * 3 / 2, 8 * slots)
            prorated.reserveCapacity(capacity)
            if includesStarts {
                startCounts.reserveCapacity(capacity)
                startSums.reserveCapacity(capacity)
            }
            touched.reserveCapacity(capacity)
        }
        prorated.append(contentsOf: repeatElement(0, count: slots))
        touched.append(contentsOf: repeatElement(false, count: slots))
        do {
            if includesStarts {
                startCounts.append(contentsOf: repeatElement(0, count: slots))
                startSums.append(contentsOf: repeatElement(0, count: slots))
                try prorated.withUnsafeMutableBufferPointer { prorated in
                    try touched.withUnsafeMutableBufferPointer { touched in
                        try startCounts.withUnsafeMutableBufferPointer { startCounts in
                            try startSums.withUnsafeMutableBufferPointer { startSums in
                                try RollupRowCodec.forEachSlot(bytes, in: wanted) {
                                    slot, value, count, sum in
                                    prorated[base + slot] = value
                                    touched[base + slot] = true
                                    startCounts[base + slot] = count
                                    startSums[base + slot] = sum
                                }
                            }
                        }
                    }
                }
            } else {
                try prorated.withUnsafeMutableBufferPointer { prorated in
                    try touched.withUnsafeMutableBufferPointer { touched in
                        try RollupRowCodec.forEachSlot(bytes, in: wanted) {
                            slot, value, _, _ in
                            prorated[base + slot] = value
                            touched[base + slot] = true
                        }
                    }
                }
            }
        } catch let damage as RowDamage {
            throw StoreError.damagedRollup(
                series: record.name, dayStart: day * TimeGrid.day, reason: damage.reason)
        }
        index.set(day, row: row)
    }

    /// The offset of `day`'s first slot in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func base(ofDay day: Int64) -> Int? { index.base(ofDay: day) }
}
