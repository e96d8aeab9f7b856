import LMDB

/// The decoded rollup rows of one series over a range of UTC days, in flat arrays.
///
/// Loaded once per query: by point lookups when few days are needed, by one cursor
/// walk when most of the range is. Missing rows read as empty. Of a row of format 2 only
/// the slots the query covers are decoded (a local day in a zone a quarter-hour off UTC
/// reads half of each of two rows); the others read as empty.
struct RollupRows {
    private var index: DayRowIndex
    private(set) var prorated: [Double] = []
    private(set) var startCounts: [UInt32] = []
    private(set) var startSums: [Double] = []
    private(set) var touched: [Bool] = []
    /// Whether `startCounts` and `startSums` were loaded.
    let includesStarts: Bool

    /// Loads the rows of `days` for `record`: by point lookups when they are sparse, by one
    /// cursor walk when they are an eighth of the range or more. Format-1 rows not yet
    /// migrated are read first, whole; a format-2 row of the same day replaces them.
    init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days daySlots: DaySlots,
        includesStarts: Bool, txn: borrowing T
    ) throws {
        self.includesStarts = includesStarts
        let days = daySlots.days
        let wanted = DayRowIndex(days: days)
        index = wanted
        try Self.forEachFormatOneRow(
            storage: storage, record: record, days: days, isWanted: wanted.isWanted, txn: txn
        ) { day, row in
            try self.append(
                row, format: 1, day: day, slots: 0..<DayRollup.slotCount, record: record)
        }
        try Self.forEachFormatTwoRow(
            storage: storage, record: record, days: days, isWanted: wanted.isWanted, txn: txn
        ) { day, row in
            try self.append(
                row, format: 2, day: day, slots: daySlots.slots(ofDay: day), record: record)
        }
    }

    /// Calls `body(day, row)` with the format-1 row of each of `days` (sorted, unique;
    /// `isWanted` says whether a day is one of them) that `record` still has: such rows remain
    /// only in a store whose format migration has not finished. Rows come in day order.
    static func forEachFormatOneRow<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days: [Int64], isWanted: (Int64) -> Bool,
        txn: borrowing T, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let first = days.first, let last = days.last,
            try txn.statistics(of: storage.rollups).entries > 0
        else { return }
        try txn.withCursor(storage.rollups) { cursor in
            try cursor.forEach(
                from: StorageKey.make(series: record.id, index: RollupBlock.index(ofDay: first))
            ) { key, value in
                guard let parsed = StorageKey.parse(key), parsed.series == record.id,
                    parsed.index <= RollupBlock.index(ofDay: last)
                else { return false }
                do {
                    try RollupBlock.forEachRow(value) { offset, row in
                        let day = parsed.index * RollupBlock.days + Int64(offset)
                        if isWanted(day) { try body(day, row) }
                    }
                } catch let damage as RollupCodec.Damage {
                    throw StoreError.damagedRollup(
                        series: record.name,
                        dayStart: parsed.index * RollupBlock.days * TimeGrid.day,
                        reason: damage.reason)
                }
                return true
            }
        }
    }

    /// Calls `body(day, row)` with the format-2 row of each of `days` (sorted, unique; `isWanted`
    /// says whether a day is one of them) that `record` has: by point lookups when the days
    /// are sparse, by one cursor walk when they are an eighth of their span or more.
    static func forEachFormatTwoRow<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days: [Int64], isWanted: (Int64) -> Bool,
        txn: borrowing T, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let rows = storage.days, let first = days.first, let last = days.last else { return }
        let span = Int(last - first + 1)
        // A cursor step costs a tenth of a lookup's descent: walk unless the days are sparse
        // or too few to pay for opening a cursor.
        if days.count > 2 && days.count * 8 >= span {
            // One walk over the range's rows, skipping other series' (rows are keyed by day first).
            try txn.withCursor(rows) { cursor in
                try cursor.forEach(from: StorageKey.dayRowKey(series: record.id, day: first)) {
                    key, value in
                    guard let parsed = StorageKey.parseDayRow(key), parsed.day <= last else {
                        return false
                    }
                    if parsed.series == record.id && isWanted(parsed.day) {
                        try body(parsed.day, value)
                    }
                    return true
                }
            }
        } else {
            for day in days {
                try StorageKey.dayRowKey(series: record.id, day: day).withUnsafeBytes { key in
                    _ = try txn.withValue(forKey: key, in: rows) { try body(day, $0) }
                }
            }
        }
    }

    private mutating func append(
        _ bytes: UnsafeRawBufferPointer, format: Int, day: Int64, slots wanted: Range<Int>,
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
                                try Self.forEachSlot(bytes, format: format, slots: wanted) {
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
                        try Self.forEachSlot(bytes, format: format, slots: wanted) {
                            slot, value, _, _ in
                            prorated[base + slot] = value
                            touched[base + slot] = true
                        }
                    }
                }
            }
        } catch let damage as RollupCodec.Damage {
            throw StoreError.damagedRollup(
                series: record.name, dayStart: day * TimeGrid.day, reason: damage.reason)
        }
        index.set(day, row: row)
    }

    /// Calls `body(slot, prorated, startCount, startSum)` for each touched slot of a row of
    /// `format` (of `slots` only, in format 2).
    @inline(__always)
    private static func forEachSlot(
        _ row: UnsafeRawBufferPointer, format: Int, slots: Range<Int>,
        _ body: (Int, Double, UInt32, Double) -> Void
    ) throws(RollupCodec.Damage) {
        if format == 2 {
            try RollupRowCodec.forEachSlot(row, in: slots, body)
        } else {
            try RollupCodec.forEachSlot(row, body)
        }
    }

    /// The offset of `day`'s first slot in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func base(ofDay day: Int64) -> Int? { index.base(ofDay: day) }
}
