@testable import TrendStore

/// One quarter-hour slot's figures: prorated sum, count of starts, sum of start values.
struct SlotFigures {
    var prorated = 0.0
    var count: UInt32 = 0
    var startSum = 0.0
    /// The sum of absolute contributions, the scale for comparing sums that may cancel.
    var magnitude = 0.0
}

/// Rollups computed the slow, obvious way: every slot against every sample.
enum RollupReference {
    static func slots(day: Int64, samples: [Sample]) -> [SlotFigures] {
        let dayStart = day * 86_400_000
        return (0..<96).map { slot in
            let slotStart = dayStart + Int64(slot) * 900_000
            let slotEnd = slotStart + 900_000
            var figures = SlotFigures()
            for sample in samples {
                let start = sample.startMilliseconds
                let end = sample.endMilliseconds
                if start >= slotStart && start < slotEnd {
                    figures.count += 1
                    figures.startSum += sample.value
                }
                let contribution: Double
                if end == start {
                    contribution = (start >= slotStart && start < slotEnd) ? sample.value : 0
                } else {
                    let overlap = max(0, min(end, slotEnd) - max(start, slotStart))
                    contribution = sample.value * Double(overlap) / Double(end - start)
                }
                figures.prorated += contribution
                figures.magnitude +=
                    abs(contribution)
                    + ((start >= slotStart && start < slotEnd) ? abs(sample.value) : 0)
            }
            return figures
        }
    }

    /// The UTC days any of `samples` touches.
    static func days(of samples: [Sample]) -> Set<Int64> {
        var days = Set<Int64>()
        for sample in samples {
            let first = sample.startMilliseconds.floorDivided(by: 86_400_000)
            let lastInstant =
                sample.endMilliseconds > sample.startMilliseconds
                ? sample.endMilliseconds - 1 : sample.startMilliseconds
            for day in first...lastInstant.floorDivided(by: 86_400_000) { days.insert(day) }
        }
        return days
    }
}

/// The rollup row the store holds for `series` on `day`, decoded, or `nil`.
func storedRollup(_ store: TrendStore, series: String, day: Int64) throws -> [SlotFigures]? {
    let engine = store.engine
    return try engine.read { txn in
        let record = try engine.storage.requireSeries(named: series, in: txn)
        let key = StorageKey.dayRowKey(series: record.id, day: day)
        guard
            let bytes = try txn.value(forKey: key, in: engine.storage.days.database)
        else {
            return nil
        }
        var slots = Array(repeating: SlotFigures(), count: 96)
        try bytes.withUnsafeBytes { bytes in
            try RollupRowCodec.forEachSlot(bytes) { slot, prorated, count, startSum in
                slots[slot] = SlotFigures(prorated: prorated, count: count, startSum: startSum)
            }
        }
        return slots
    }
}

/// Whether `actual` is within 1e-9 of `expected`, relative to the contributions' magnitude.
func close(_ actual: Double, _ expected: Double, scale: Double) -> Bool {
    abs(actual - expected) <= 1e-9 * max(scale, abs(expected), 1e-300)
}

/// The stored bytes of `series`' rollup row of UTC day `day`, or `nil` when it has none.
func storedRowBytes(_ store: TrendStore, series: String, day: Int64) throws -> [UInt8]? {
    let engine = store.engine
    return try engine.read { txn in
        let record = try engine.storage.requireSeries(named: series, in: txn)
        return try txn.value(
            forKey: StorageKey.dayRowKey(series: record.id, day: day),
            in: engine.storage.days.database)
    }
}
