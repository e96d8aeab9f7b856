/// What a write leaves of one series' UTC day: the rollup row to store and the day's
/// hour-summary segment, both made from the day's ``DayRollup`` (on the thread that built
/// it), so the summary never reads the row back.
struct DayRowChange: Sendable {
    /// The UTC day.
    let day: Int64
    /// Whether samples touch the day (it has a row and a summary).
    let holdsSamples: Bool
    /// The row's bytes; `nil` when no sample touches the day, or when the row is not kept
    /// (an older day of a store of the hour grid, whose summary is all that is stored).
    let row: [UInt8]?
    /// The day's segment of its hour-summary row (``HourSummaryCodec``); `nil` when no hour
    /// has data.
    let segment: [UInt8]?

    /// The change `rollup` makes to the day of `series`, summarised into hours of `phase`;
    /// its row is encoded when `keepsRow`.
    init(rollup: DayRollup, series: UInt32, phase: HourPhase, keepsRow: Bool) {
        day = rollup.day
        holdsSamples = !rollup.isEmpty
        row = holdsSamples && keepsRow ? RollupRowCodec.encode(rollup) : nil
        segment =
            holdsSamples
            ? HourSummaryCodec.segment(
                DayHours.build(from: rollup, phase: phase), day: rollup.day, series: series)
            : nil
    }
}
