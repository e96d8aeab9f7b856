/// The sums of the summary hours beginning in two consecutive UTC days
/// (``HourRows/sums(ofDay:into:at:)``), the window a local day reads: the next local day
/// begins in the second, so each UTC day is read once over many days.
struct SummaryWindow {
    private var firstDay = Int64.min
    /// The hours with data, bit `24 × (day − firstDay) + h` for hour `h`.
    private var present: UInt64 = 0
    /// The sums of the two days' hours, 0 where an hour has no data.
    private var sums = [Double](repeating: 0, count: 48)

    /// Makes the window hold UTC days `day` and `day + 1`.
    @inline(__always)
    private mutating func load(from day: Int64, _ hours: HourRows) {
        guard day != firstDay else { return }
        if day == firstDay + 1 {
            for hour in 0..<24 { sums[hour] = sums[hour + 24] }
            present >>= 24
        } else {
            present = UInt64(hours.sums(ofDay: day, into: &sums, at: 0))
        }
        present |= UInt64(hours.sums(ofDay: day + 1, into: &sums, at: 24)) << 24
        firstDay = day
    }

    /// Adds the 24 summary hours from `start` (a summary hour start) to local hours 0…23
    /// of `figures`.
    @inline(__always)
    mutating func addDay(
        startingAt start: Int64, of hours: HourRows, to figures: inout LocalDayFigures
    ) {
        let (day, first) = hours.phase.entry(ofHourStartingAt: start)
        load(from: day, hours)
        if (present >> UInt64(first)) & 0xFF_FFFF != 0 { figures.hasData = true }
        sums.withUnsafeBufferPointer { sums in
            figures.hourly.withUnsafeMutableBufferPointer { hourly in
                for hour in 0..<24 { hourly[hour] += sums[first + hour] }
            }
        }
    }

    /// Adds the sum of the summary hour starting at `start` to local hour `hour` of `figures`.
    @inline(__always)
    mutating func add(
        hourStarting start: Int64, of hours: HourRows, toHour hour: Int,
        of figures: inout LocalDayFigures
    ) {
        let (day, entry) = hours.phase.entry(ofHourStartingAt: start)
        if day != firstDay && day != firstDay + 1 { load(from: day, hours) }
        let index = Int(day - firstDay) * 24 + entry
        if present & (1 << UInt64(index)) != 0 {
            figures.hasData = true
            figures.hourly[hour] += sums[index]
        }
    }
}
