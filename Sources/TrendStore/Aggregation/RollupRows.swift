import LMDB

/// The decoded rollup rows of one series over a range of UTC days, in flat arrays.
///
/// Loaded once per query: by point lookups when few days are needed, by one cursor
/// walk when most of the range is. Missing rows read as empty.
struct RollupRows {
    private let firstDay: Int64
    /// For each day of the range, its row number in the flat arrays, or -1.
    private var rowOfDay: [Int32]
    private(set) var prorated: [Double] = []
    private(set) var startCounts: [UInt32] = []
    private(set) var startSums: [Double] = []
    private(set) var touched: [Bool] = []
    /// Whether `startCounts` and `startSums` were loaded.
    let includesStarts: Bool

    /// Loads the rows of `days` (sorted, unique) for `record`: by point lookups of their
    /// week blocks when few are needed, by one cursor walk when most of the range is.
    init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, record: SeriesRecord, days: [Int64], includesStarts: Bool,
        txn: borrowing T
    ) throws {
        self.includesStarts = includesStarts
        firstDay = days.first ?? 0
        let span = days.isEmpty ? 0 : Int(days.last! - firstDay + 1)
        rowOfDay = Array(repeating: -1, count: span)
        guard !days.isEmpty else { return }
        var wanted = [Bool](repeating: false, count: span)
        for day in days { wanted[Int(day - firstDay)] = true }
        let firstDay = self.firstDay
        var blocks: [Int64] = []
        for day in days where RollupBlock.index(ofDay: day) != blocks.last {
            blocks.append(RollupBlock.index(ofDay: day))
        }
        let readBlock = {
            (rows: inout RollupRows, index: Int64, bytes: UnsafeRawBufferPointer) throws in
            do {
                try RollupBlock.forEachRow(bytes) { offset, row in
                    let day = index * RollupBlock.days + Int64(offset)
                    let index = day - firstDay
                    if index >= 0 && index < wanted.count && wanted[Int(index)] {
                        try rows.append(row, day: day, record: record)
                    }
                }
            } catch let damage as RollupCodec.Damage {
                throw StoreError.damagedRollup(
                    series: record.name, dayStart: index * RollupBlock.days * TimeGrid.day,
                    reason: damage.reason)
            }
        }
        if blocks.count * 3 >= Int(blocks.last! - blocks.first! + 1) {
            let last = blocks.last!
            try txn.withCursor(storage.rollups) { cursor in
                try cursor.forEach(from: StorageKey.make(series: record.id, index: blocks.first!)) {
                    key, value in
                    guard let parsed = StorageKey.parse(key), parsed.series == record.id,
                        parsed.index <= last
                    else {
                        return false
                    }
                    try readBlock(&self, parsed.index, value)
                    return true
                }
            }
        } else {
            for index in blocks {
                let key = StorageKey.make(series: record.id, index: index)
                try key.withUnsafeBytes { key in
                    _ = try txn.withValue(forKey: key, in: storage.rollups) {
                        try readBlock(&self, index, $0)
                    }
                }
            }
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer, day: Int64, record: SeriesRecord)
        throws
    {
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
                                try RollupCodec.forEachSlot(bytes) { slot, value, count, sum in
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
                        try RollupCodec.forEachSlot(bytes, decodingStartSums: false) {
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
        rowOfDay[Int(day - firstDay)] = Int32(row)
    }

    /// The offset of `day`'s first slot in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func base(ofDay day: Int64) -> Int? {
        let index = day - firstDay
        guard index >= 0, index < rowOfDay.count else { return nil }
        let row = rowOfDay[Int(index)]
        return row < 0 ? nil : Int(row) * DayRollup.slotCount
    }
}
