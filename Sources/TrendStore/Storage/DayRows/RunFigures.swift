/// The figures of some samples of one series: of a run of consecutive rollup slots within
/// one UTC hour (what an hour summary stores for a whole hour), or of a statistics bucket
/// made of such runs and raw samples.
///
/// Runs are added in slot order from zero, and a bucket adds its runs in time order, so an
/// answer read from hour summaries has the same bits as one read from slots.
struct RunFigures: Equatable {
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

    /// Adds a cumulative slot or run: its prorated sum, start count and whether a sample overlaps it.
    @inline(__always)
    mutating func addProrated(_ prorated: Double, count: UInt64, touched: Bool) {
        hasData = hasData || touched
        self.count &+= count
        sum += prorated
    }

    /// Adds `count` (> 0) discrete samples: one sample, a slot's or a run's members.
    @inline(__always)
    mutating func addMembers(
        count: UInt64, sum: Double, minimum: Double, maximum: Double, latest: Sample
    ) {
        let hadData = hasData
        addMembers(count: count, sum: sum, minimum: minimum, maximum: maximum)
        offerLatest(latest, hadData: hadData)
    }

    /// Adds `count` (> 0) discrete samples but for their latest, which the caller offers
    /// next with ``offerLatest(_:hadData:)``: once for a run of hours, whose last hour's
    /// latest is the run's.
    @inline(__always)
    mutating func addMembers(count: UInt64, sum: Double, minimum: Double, maximum: Double) {
        if hasData {
            self.minimum = Swift.min(self.minimum, minimum)
            self.maximum = Swift.max(self.maximum, maximum)
        } else {
            hasData = true
            self.minimum = minimum
            self.maximum = maximum
        }
        self.count &+= count
        self.sum += sum
    }

    /// Makes `latest` the latest sample when it is later, or when the figures had no data
    /// (`hadData`) before its members were added.
    @inline(__always)
    mutating func offerLatest(_ latest: Sample, hadData: Bool) {
        if !hadData || SlotExtremes.isLater(latest, than: self.latest) { self.latest = latest }
    }

    /// Adds the figures of `run` of a series of `kind`.
    @inline(__always)
    mutating func add(_ run: RunFigures, kind: SeriesKind) {
        switch kind {
        case .cumulative:
            addProrated(run.sum, count: run.count, touched: run.hasData)
        case .discrete:
            if run.hasData {
                addMembers(
                    count: run.count, sum: run.sum, minimum: run.minimum, maximum: run.maximum,
                    latest: run.latest)
            }
        }
    }
}
