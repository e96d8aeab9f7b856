/// Where a store's hour summaries begin within each UTC hour: on the hour (``utc``), or a
/// quarter, a half or three quarters past it, so that a zone off UTC by a half or a quarter
/// of an hour (India, Nepal, Newfoundland, South Australia) reads its local hours from
/// summaries as whole-hour zones do.
///
/// With a phase of `p`, UTC day `d`'s summary holds the hour pieces of the day's rollup row
/// (``DayHours``): entry `h` (0…23) begins at `d + p + h` hours and ends an hour later or
/// at the day's end, and entry ``headEntry`` is the day's first `p` (from midnight to the
/// first summary hour). A summary hour that crosses UTC midnight is day `d`'s entry 23
/// and day `d + 1`'s head. With no phase there are no heads, and entry `h` is UTC hour `h`.
struct HourPhase: Hashable, Sendable {
    /// Milliseconds after each UTC hour that summary hours begin: 0, 15, 30 or 45 minutes.
    let offset: Int64

    /// Summary hours are UTC hours.
    static let utc = HourPhase(validOffset: 0)
    /// The entry of a day's summary holding the day's first slots, before its first summary hour.
    static let headEntry = 24
    private static let slotsPerHour = Int(TimeGrid.hour / TimeGrid.quarterHour)

    private init(validOffset: Int64) { offset = validOffset }

    /// The phase of `milliseconds` after the hour, or `nil` unless it is a whole number of
    /// quarter-hours under an hour.
    init?(milliseconds: Int64) {
        guard (0..<TimeGrid.hour).contains(milliseconds),
            milliseconds % TimeGrid.quarterHour == 0
        else { return nil }
        offset = milliseconds
    }

    /// The phase at which local hours begin in a zone `utcOffset` milliseconds off UTC, or
    /// `nil` when that is not a whole number of quarter-hours (a historical offset such as
    /// Monrovia's −0:44:30).
    init?(localHoursAtUTCOffset utcOffset: Int64) {
        self.init(milliseconds: (-utcOffset).floorModulo(TimeGrid.hour))
    }

    /// How many quarter-hour slots of a UTC day come before its first summary hour.
    var headSlots: Int { Int(offset / TimeGrid.quarterHour) }

    /// The entry of a day's summary that slot `slot` (0…95) of its row falls in.
    @inline(__always)
    func entry(ofSlot slot: Int) -> Int {
        slot < headSlots ? Self.headEntry : (slot - headSlots) / Self.slotsPerHour
    }

    /// The instant entry `entry` of UTC day `day`'s summary begins.
    @inline(__always)
    func start(ofEntry entry: Int, day: Int64) -> Int64 {
        day * TimeGrid.day + (entry == Self.headEntry ? 0 : offset + Int64(entry) * TimeGrid.hour)
    }

    /// Whether a summary hour begins at `instant`.
    @inline(__always)
    func isHourStart(_ instant: Int64) -> Bool {
        (instant - offset).floorModulo(TimeGrid.hour) == 0
    }

    /// The start of the summary hour holding `instant`.
    @inline(__always)
    func hourStart(containing instant: Int64) -> Int64 {
        instant - (instant - offset).floorModulo(TimeGrid.hour)
    }

    /// The first summary hour start at or after `instant`.
    @inline(__always)
    func hourStart(atOrAfter instant: Int64) -> Int64 {
        let start = hourStart(containing: instant)
        return start == instant ? start : start + TimeGrid.hour
    }

    /// The UTC day whose summary holds entry 0…23 of the summary hour beginning at `start`
    /// (a summary hour start), and that entry.
    @inline(__always)
    func entry(ofHourStartingAt start: Int64) -> (day: Int64, entry: Int) {
        let shifted = start - offset
        let day = shifted.floorDivided(by: TimeGrid.day)
        return (day, Int((shifted - day * TimeGrid.day) / TimeGrid.hour))
    }
}
