/// A sample that crosses exactly one quarter-hour boundary of a UTC day and is the only
/// such sample there: it starts in the slot before the boundary and ends in the slot after
/// it (either may lie in the next or previous day).
///
/// Its value is kept as a scaled integer of the day's exponent, so the two shares it gives
/// (``Proration/share(of:overlap:duration:)`` of `before` and of `duration - before`) and
/// the escaping integer of its start slot can be recomputed bit for bit from it.
struct SlotCrossing: Equatable {
    /// The boundary crossed, 0…96: the start of slot `boundary` (96 is the day's end).
    let boundary: Int
    /// The value as an integer of `10^exponent`.
    let integer: Int64
    /// Milliseconds from the sample's start to the boundary (more than zero).
    let before: Int64
    /// The sample's duration (more than `before`).
    let duration: Int64

    /// The lone single-boundary crossers among `samples` (sorted by `(start, end)`) of the
    /// day starting at `dayStart`, in boundary order, whose values scale at `exponent`.
    static func find(in samples: some Collection<Sample>, dayStart: Int64, exponent: Int)
        -> [SlotCrossing]
    {
        let boundaries = DayRollup.slotCount + 1
        // Per boundary: how many single-boundary crossers (0, 1, or 2 for more), and the last.
        var crossers = [UInt8](repeating: 0, count: boundaries)
        var found = [Sample](
            repeating: Sample(startMilliseconds: 0, endMilliseconds: 0, value: 0),
            count: boundaries)
        for sample in samples {
            let start = sample.startMilliseconds
            let end = sample.endMilliseconds
            guard end > start else { continue }
            let firstSlot = (start - dayStart).floorDivided(by: TimeGrid.quarterHour)
            let lastSlot = (end - 1 - dayStart).floorDivided(by: TimeGrid.quarterHour)
            guard lastSlot == firstSlot + 1, (0...Int64(DayRollup.slotCount)).contains(lastSlot)
            else { continue }
            let boundary = Int(lastSlot)
            crossers[boundary] = min(crossers[boundary] + 1, 2)
            found[boundary] = sample
        }
        return (0..<boundaries).compactMap { boundary in
            let sample = found[boundary]
            guard crossers[boundary] == 1,
                let integer = DecimalScale.scaled(sample.value, exponent: exponent)
            else { return nil }
            let instant = dayStart + Int64(boundary) * TimeGrid.quarterHour
            return SlotCrossing(
                boundary: boundary, integer: integer, before: instant - sample.startMilliseconds,
                duration: sample.endMilliseconds - sample.startMilliseconds)
        }
    }
}
