/// What a discrete series' rollup row keeps per quarter-hour slot beside the count and sum
/// of the samples starting in it: their smallest and largest value, and the latest of them.
struct SlotExtremes: Equatable {
    /// The smallest value starting in each slot (meaningless where the count is 0).
    var minimum: [Double]
    /// The largest value starting in each slot.
    var maximum: [Double]
    /// The sample with the latest `(start, end)` starting in each slot.
    var latest: [Sample]

    init() {
        minimum = Array(repeating: 0, count: DayRollup.slotCount)
        maximum = Array(repeating: 0, count: DayRollup.slotCount)
        latest = Array(
            repeating: Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0),
            count: DayRollup.slotCount)
    }

    /// Adds `sample` to `slot`, where `isFirst` says the slot had no sample yet.
    ///
    /// The latest sample is the one with the greatest start, then the greatest end, as
    /// HealthKit-style statistics define the most recent sample.
    @inline(__always)
    mutating func add(_ sample: Sample, slot: Int, isFirst: Bool) {
        if isFirst {
            minimum[slot] = sample.value
            maximum[slot] = sample.value
            latest[slot] = sample
            return
        }
        minimum[slot] = Swift.min(minimum[slot], sample.value)
        maximum[slot] = Swift.max(maximum[slot], sample.value)
        if Self.isLater(sample, than: latest[slot]) { latest[slot] = sample }
    }

    /// Whether `sample` is more recent than `other`: a later start, or the same start and a later end.
    @inline(__always)
    static func isLater(_ sample: Sample, than other: Sample) -> Bool {
        (sample.startMilliseconds, sample.endMilliseconds)
            > (other.startMilliseconds, other.endMilliseconds)
    }
}
