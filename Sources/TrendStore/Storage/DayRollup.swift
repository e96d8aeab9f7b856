/// The summary of one series over one UTC day, per quarter-hour slot (96 slots).
///
/// - `prorated[q]`: the sum of each sample's value times the fraction of its duration
///   inside slot `q` (an instant sample counts whole in the slot holding it).
/// - `touched[q]`: whether any sample overlaps slot `q` (even with a zero value), so a
///   day with only zero-valued samples still counts as a day with data.
/// - `startCounts[q]`, `startSums[q]`: how many samples start in slot `q`, and the sum
///   of their whole values. Start sums are exact: when every value starting in the day
///   is a decimal with at most nine places, they are summed as scaled integers.
///
/// Every real time zone's offsets are whole quarter-hours, so any local hour or day is
/// an exact sum of slots. A rollup is a pure function of the samples overlapping its
/// day, computed in sample order, so recomputing it gives the same bits.
struct DayRollup: Equatable {
    static let slotCount = 96

    /// The UTC day number (days since 1970-01-01).
    let day: Int64
    var prorated: [Double]
    var touched: [Bool]
    var startCounts: [UInt32]
    var startSums: [Double]
    /// The exponent of the exact start sums, or `nil` when they are plain `Double` sums.
    var startSumExponent: Int?

    init(day: Int64) {
        self.day = day
        prorated = Array(repeating: 0, count: Self.slotCount)
        touched = Array(repeating: false, count: Self.slotCount)
        startCounts = Array(repeating: 0, count: Self.slotCount)
        startSums = Array(repeating: 0, count: Self.slotCount)
        startSumExponent = nil
    }

    var dayStart: Int64 { day * TimeGrid.day }

    /// Whether no sample touches the day.
    var isEmpty: Bool { !touched.contains(true) }

    /// Builds the rollup of `day` from samples sorted by `(start, end)`.
    ///
    /// `samples` may hold samples that do not touch the day; they are skipped.
    static func build(day: Int64, from samples: some Collection<Sample>) -> DayRollup {
        var rollup = DayRollup(day: day)
        let dayStart = day * TimeGrid.day
        let dayEnd = dayStart + TimeGrid.day
        let starting = samples.filter {
            $0.startMilliseconds >= dayStart && $0.startMilliseconds < dayEnd
        }
        let scaling = DecimalScale.commonScaling(of: starting.lazy.map(\.value))
        var scaledSums = [Int64](repeating: 0, count: slotCount)
        var exact = scaling != nil
        for (index, sample) in starting.enumerated() {
            let slot = Int((sample.startMilliseconds - dayStart) / TimeGrid.quarterHour)
            rollup.startCounts[slot] += 1
            rollup.startSums[slot] += sample.value
            if exact, let scaling {
                let (sum, overflow) = scaledSums[slot].addingReportingOverflow(
                    scaling.integers[index])
                if overflow { exact = false } else { scaledSums[slot] = sum }
            }
        }
        for sample in samples { rollup.addProrated(sample, dayStart: dayStart, dayEnd: dayEnd) }
        let exponent = scaling?.exponent
        if exact, let exponent {
            var exactSums = rollup.startSums
            for slot in 0..<slotCount where rollup.startCounts[slot] > 0 {
                let sum = Double(scaledSums[slot]) / DecimalScale.powers[exponent]
                guard DecimalScale.scaled(sum, exponent: exponent) == scaledSums[slot] else {
                    return rollup
                }
                exactSums[slot] = sum
            }
            rollup.startSums = exactSums
            rollup.startSumExponent = exponent
        }
        return rollup
    }

    /// Adds the part of `sample` inside `[dayStart, dayEnd)` to the prorated slots.
    private mutating func addProrated(_ sample: Sample, dayStart: Int64, dayEnd: Int64) {
        let start = sample.startMilliseconds
        let end = sample.endMilliseconds
        if end == start {
            if start >= dayStart && start < dayEnd {
                let slot = Int((start - dayStart) / TimeGrid.quarterHour)
                prorated[slot] += sample.value
                touched[slot] = true
            }
            return
        }
        let from = max(start, dayStart)
        let to = min(end, dayEnd)
        guard from < to else { return }
        let duration = Double(end - start)
        var slot = Int((from - dayStart) / TimeGrid.quarterHour)
        var slotStart = dayStart + Int64(slot) * TimeGrid.quarterHour
        while slotStart < to {
            let slotEnd = slotStart + TimeGrid.quarterHour
            let overlap = min(to, slotEnd) - max(from, slotStart)
            prorated[slot] += Proration.share(
                of: sample.value, overlap: overlap, duration: duration)
            touched[slot] = true
            slot += 1
            slotStart = slotEnd
        }
    }
}

/// The one formula for a sample's share of a time bucket, used everywhere a bucket is filled.
enum Proration {
    /// `value × overlap / duration`, multiplying first: exact whenever the true share is representable.
    @inline(__always)
    static func share(of value: Double, overlap: Int64, duration: Double) -> Double {
        value * Double(overlap) / duration
    }
}
