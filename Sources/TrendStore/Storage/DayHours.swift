/// One series' figures per UTC hour of one UTC day, summarised from the day's rollup row:
/// the level whole-hour spans read instead of four quarter-hour slots each.
///
/// Each hour's figures are its slots added in slot order from zero (``RunFigures``),
/// exactly what a reader of the slots forms for a whole hour, so an answer from hours has
/// the same bits as one from slots. The summary is a pure function of the row: rebuilding
/// it gives the same bytes.
struct DayHours: Equatable {
    static let hourCount = 24
    static let slotsPerHour = DayRollup.slotCount / hourCount

    let kind: SeriesKind
    /// The figures of each hour; an hour without data holds zeros and is not stored.
    var hours = [RunFigures](repeating: RunFigures(), count: hourCount)

    init(kind: SeriesKind) { self.kind = kind }

    /// Whether no hour has data.
    var isEmpty: Bool { !hours.contains { $0.hasData } }

    /// Summarises the rollup row of UTC day `day` (either kind; the row says which).
    static func build(fromRow row: UnsafeRawBufferPointer, day: Int64)
        throws(RollupCodec.Damage) -> DayHours
    {
        if RollupRowCodec.isDiscrete(row) {
            var summary = DayHours(kind: .discrete)
            try RollupRowCodec.forEachDiscreteSlot(row, day: day) { slot, count, sum, extremes in
                summary.hours[slot / slotsPerHour].addMembers(
                    count: UInt64(count), sum: sum, minimum: extremes.minimum,
                    maximum: extremes.maximum,
                    latest: extremes.latest)
            }
            return summary
        }
        var summary = DayHours(kind: .cumulative)
        try RollupRowCodec.forEachSlot(row) { slot, prorated, count, _ in
            summary.hours[slot / slotsPerHour].addProrated(
                prorated, count: UInt64(count), touched: true)
        }
        return summary
    }
}
