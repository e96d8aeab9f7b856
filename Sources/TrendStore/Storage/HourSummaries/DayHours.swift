/// One series' figures per summary hour of one UTC day, summarised from the day's rollup
/// row: the level whole-hour spans read instead of four quarter-hour slots each.
///
/// The hours are UTC hours, or begin a quarter, half or three quarters past them in a store
/// with an ``HourPhase`` (then the day's last entry is cut at midnight and entry
/// ``HourPhase/headEntry`` holds the day's first slots). Each entry's figures are its slots
/// added in slot order from zero (``RunFigures``), exactly what a reader of the slots forms
/// for them, so an answer from hours has the same bits as one from slots. The summary is a
/// pure function of the row and the phase: rebuilding it gives the same bytes.
struct DayHours: Equatable {
    /// Entries 0…23 (the summary hours beginning in the day) and the head.
    static let entryCount = 25
    static let slotsPerHour = DayRollup.slotCount / 24

    let kind: SeriesKind
    let phase: HourPhase
    /// The figures of each entry; one without data holds zeros and is not stored.
    var hours = [RunFigures](repeating: RunFigures(), count: entryCount)

    init(kind: SeriesKind, phase: HourPhase = .utc) {
        self.kind = kind
        self.phase = phase
    }

    /// Whether no hour has data.
    var isEmpty: Bool { !hours.contains { $0.hasData } }

    /// Summarises the rollup row of UTC day `day` (either kind; the row says which) into
    /// hours of `phase`.
    static func build(fromRow row: UnsafeRawBufferPointer, day: Int64, phase: HourPhase)
        throws(RowDamage) -> DayHours
    {
        if RollupRowCodec.isDiscrete(row) {
            var summary = DayHours(kind: .discrete, phase: phase)
            try RollupRowCodec.forEachDiscreteSlot(row, day: day) { slot, count, sum, extremes in
                summary.hours[phase.entry(ofSlot: slot)].addMembers(
                    count: UInt64(count), sum: sum, minimum: extremes.minimum,
                    maximum: extremes.maximum,
                    latest: extremes.latest)
            }
            return summary
        }
        var summary = DayHours(kind: .cumulative, phase: phase)
        try RollupRowCodec.forEachSlot(row) { slot, prorated, count, _ in
            summary.hours[phase.entry(ofSlot: slot)].addProrated(
                prorated, count: UInt64(count), touched: true)
        }
        return summary
    }

    /// Summarises `rollup` into hours of `phase`: the summary ``build(fromRow:day:phase:)``
    /// gives for the row of `rollup`, bit for bit (the row keeps every figure the summary
    /// reads), without encoding the row and reading it back.
    static func build(from rollup: DayRollup, phase: HourPhase) -> DayHours {
        if let extremes = rollup.extremes {
            var summary = DayHours(kind: .discrete, phase: phase)
            for slot in 0..<DayRollup.slotCount where rollup.startCounts[slot] > 0 {
                summary.hours[phase.entry(ofSlot: slot)].addMembers(
                    count: UInt64(rollup.startCounts[slot]), sum: rollup.startSum(slot),
                    minimum: extremes.minimum[slot], maximum: extremes.maximum[slot],
                    latest: extremes.latest[slot])
            }
            return summary
        }
        var summary = DayHours(kind: .cumulative, phase: phase)
        for slot in 0..<DayRollup.slotCount where rollup.touched[slot] {
            summary.hours[phase.entry(ofSlot: slot)].addProrated(
                rollup.prorated(slot), count: UInt64(rollup.startCounts[slot]), touched: true)
        }
        return summary
    }
}
