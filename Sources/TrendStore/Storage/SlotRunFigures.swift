/// The figures of a run of consecutive rollup slots within one UTC hour, added in slot
/// order from zero: what an hour summary stores for a whole hour, and what a reader of
/// slots forms for any run before adding it to a bucket, so both give the same bits.
struct SlotRunFigures: Equatable {
    /// Whether some sample overlaps the run (cumulative) or starts in it (discrete).
    var hasData = false
    /// The samples starting in the run.
    var count: UInt64 = 0
    /// The prorated sum (cumulative) or the sum of the values starting in the run (discrete).
    var sum = 0.0
    /// Discrete: the smallest value starting in the run (0 while none does).
    var minimum = 0.0
    /// Discrete: the largest value starting in the run.
    var maximum = 0.0
    /// Discrete: the latest sample, by `(start, end)`, starting in the run.
    var latest = Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0)

    /// Adds a cumulative slot: its prorated sum, start count and whether a sample overlaps it.
    @inline(__always)
    mutating func addCumulativeSlot(prorated: Double, count: UInt32, touched: Bool) {
        hasData = hasData || touched
        self.count += UInt64(count)
        sum += prorated
    }

    /// Adds a discrete slot holding `count` (> 0) samples.
    @inline(__always)
    mutating func addDiscreteSlot(
        count: UInt32, sum: Double, minimum: Double, maximum: Double, latest: Sample
    ) {
        if hasData {
            self.minimum = Swift.min(self.minimum, minimum)
            self.maximum = Swift.max(self.maximum, maximum)
            if SlotExtremes.isLater(latest, than: self.latest) { self.latest = latest }
        } else {
            hasData = true
            self.minimum = minimum
            self.maximum = maximum
            self.latest = latest
        }
        self.count += UInt64(count)
        self.sum += sum
    }

}
