/// The summary of one series over one UTC day, per quarter-hour slot (96 slots).
///
/// Per slot `q`:
/// - `touched[q]`: whether any sample overlaps `q` (even with a zero value), so a day with
///   only zero-valued samples still counts as a day with data;
/// - `startCounts[q]` and the start sum: how many samples start in `q`, and the sum of
///   their whole values;
/// - the prorated sum: the whole values of the samples *contained* in `q` (starting in it
///   and ending by its end, or instants in it), plus `shares[q]`, each other sample's
///   value times the fraction of its duration inside `q`.
///
/// When every value starting in the day is a decimal with at most nine places (the exact
/// form, `exponent != nil`), the start sums and the contained sums are kept as integers
/// of `10^exponent`: exact, independent of order, and small to store; a minute-cadence day
/// has no shares at all. Otherwise they are `Double` sums in sample order.
///
/// In the exact form a cumulative rollup also lists its ``SlotCrossing``s: the samples that
/// cross exactly one quarter-hour boundary of the day, alone at it, with values that scale
/// at the exponent. From them a row of version 4 (``CompactRowCodec``) recomputes the
/// escaping integers and shares of most slots instead of storing them.
///
/// A discrete series' rollup (`extremes != nil`) counts each sample only in the slot
/// holding its start: `touched` marks slots with a start, nothing is prorated (no shares),
/// and ``SlotExtremes`` adds each slot's minimum, maximum and latest sample.
///
/// Every real time zone's offsets are whole quarter-hours, so any local hour or day is an
/// exact sum of slots. A rollup is a pure function of the samples overlapping its day, so
/// recomputing it gives the same bits.
struct DayRollup: Equatable {
    static let slotCount = 96

    /// The UTC day number (days since 1970-01-01).
    let day: Int64
    var touched: [Bool]
    var startCounts: [UInt32]
    /// The decimal exponent of the exact form, or `nil` for `Double` sums.
    var exponent: Int?
    /// Exact form: the scaled sum of the values starting in each slot.
    var startIntegers: [Int64]
    /// Exact form: the part of `startIntegers` from samples not contained in their slot.
    var escapingIntegers: [Int64]
    /// `Double` form: the sum of the values starting in each slot.
    var startSums: [Double]
    /// `Double` form: the sum of the values contained in each slot.
    var containedSums: [Double]
    /// The prorated parts of samples not contained in the slot they start in.
    var shares: [Double]
    /// A discrete series' minimum, maximum and latest sample per slot; `nil` for a cumulative one.
    var extremes: SlotExtremes?
    /// Exact form of a cumulative series: the lone single-boundary crossers, by boundary.
    var crossings: [SlotCrossing] = []

    init(day: Int64, kind: SeriesKind = .cumulative) {
        self.day = day
        touched = Array(repeating: false, count: Self.slotCount)
        startCounts = Array(repeating: 0, count: Self.slotCount)
        exponent = nil
        startIntegers = Array(repeating: 0, count: Self.slotCount)
        escapingIntegers = Array(repeating: 0, count: Self.slotCount)
        startSums = Array(repeating: 0, count: Self.slotCount)
        containedSums = Array(repeating: 0, count: Self.slotCount)
        shares = Array(repeating: 0, count: Self.slotCount)
        extremes = kind == .discrete ? SlotExtremes() : nil
    }

    var dayStart: Int64 { day * TimeGrid.day }

    /// Whether no sample touches the day.
    var isEmpty: Bool { !touched.contains(true) }

    /// The sum of the whole values of the samples starting in `slot`.
    func startSum(_ slot: Int) -> Double {
        guard let exponent else { return startSums[slot] }
        return Self.value(of: startIntegers[slot], exponent: exponent)
    }

    /// The prorated sum of `slot`.
    func prorated(_ slot: Int) -> Double {
        guard let exponent else { return containedSums[slot] + shares[slot] }
        return Self.value(of: startIntegers[slot] &- escapingIntegers[slot], exponent: exponent)
            + shares[slot]
    }

    /// The value of a scaled integer sum: the one formula writers and readers use.
    @inline(__always)
    static func value(of integer: Int64, exponent: Int) -> Double {
        Double(integer) / DecimalScale.powers[exponent]
    }

    /// Builds the rollup of `day` from samples sorted by `(start, end)`.
    ///
    /// `samples` may hold samples that do not touch the day; they are skipped.
    static func build(day: Int64, kind: SeriesKind, from samples: some Collection<Sample>)
        -> DayRollup
    {
        var rollup = DayRollup(day: day, kind: kind)
        let dayStart = day * TimeGrid.day
        let dayEnd = dayStart + TimeGrid.day
        let starting = samples.filter {
            $0.startMilliseconds >= dayStart && $0.startMilliseconds < dayEnd
        }
        let scaling = DecimalScale.commonScaling(of: starting.lazy.map(\.value))
        var exact = scaling != nil
        for (index, sample) in starting.enumerated() {
            let slot = Int((sample.startMilliseconds - dayStart) / TimeGrid.quarterHour)
            // A discrete sample belongs whole to the slot of its start.
            let contained =
                kind == .discrete || isContained(sample, inSlot: slot, dayStart: dayStart)
            rollup.extremes?.add(sample, slot: slot, isFirst: rollup.startCounts[slot] == 0)
            rollup.startCounts[slot] += 1
            rollup.startSums[slot] += sample.value
            if contained {
                rollup.containedSums[slot] += sample.value
                rollup.touched[slot] = true
            }
            if exact, let scaling {
                let integer = scaling.integers[index]
                let (sum, overflow) = rollup.startIntegers[slot].addingReportingOverflow(integer)
                let (escaping, escapingOverflow) =
                    contained
                    ? (rollup.escapingIntegers[slot], false)
                    : rollup.escapingIntegers[slot].addingReportingOverflow(integer)
                if overflow || escapingOverflow {
                    exact = false
                } else {
                    rollup.startIntegers[slot] = sum
                    rollup.escapingIntegers[slot] = escaping
                }
            }
        }
        for sample in samples where kind == .cumulative {
            let start = sample.startMilliseconds
            if start >= dayStart && start < dayEnd {
                let slot = Int((start - dayStart) / TimeGrid.quarterHour)
                if isContained(sample, inSlot: slot, dayStart: dayStart) { continue }
            }
            rollup.addShares(sample, dayStart: dayStart, dayEnd: dayEnd)
        }
        if exact, let scaling {
            rollup.exponent = scaling.exponent
            if kind == .cumulative {
                rollup.crossings = SlotCrossing.find(
                    in: samples, dayStart: dayStart, exponent: scaling.exponent)
            }
        } else {
            rollup.startIntegers = Array(repeating: 0, count: slotCount)
            rollup.escapingIntegers = Array(repeating: 0, count: slotCount)
        }
        return rollup
    }

    /// Whether `sample`, starting in `slot`, lies wholly inside it.
    @inline(__always)
    static func isContained(_ sample: Sample, inSlot slot: Int, dayStart: Int64) -> Bool {
        sample.endMilliseconds == sample.startMilliseconds
            || sample.endMilliseconds <= dayStart + Int64(slot + 1) * TimeGrid.quarterHour
    }

    /// Adds the part of `sample` inside `[dayStart, dayEnd)` to the slots' shares.
    mutating func addShares(_ sample: Sample, dayStart: Int64, dayEnd: Int64) {
        let start = sample.startMilliseconds
        let end = sample.endMilliseconds
        let from = max(start, dayStart)
        let to = min(end, dayEnd)
        guard end > start, from < to else { return }
        let duration = Double(end - start)
        var slot = Int((from - dayStart) / TimeGrid.quarterHour)
        var slotStart = dayStart + Int64(slot) * TimeGrid.quarterHour
        while slotStart < to {
            let slotEnd = slotStart + TimeGrid.quarterHour
            let overlap = min(to, slotEnd) - max(from, slotStart)
            shares[slot] += Proration.share(of: sample.value, overlap: overlap, duration: duration)
            touched[slot] = true
            slot += 1
            slotStart = slotEnd
        }
    }
}
