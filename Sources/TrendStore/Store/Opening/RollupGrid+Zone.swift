import Foundation

extension RollupGrid {
    /// The grid a new store in `zone` gets when its options name none: ``hour`` when every
    /// local hour of the zone from 2000 through 2099 begins at the same minute of the UTC
    /// hour (``HourPhase/init(localHoursOf:)``: Los Angeles, Berlin, India, Nepal,
    /// Newfoundland, South Australia), else ``quarterHour`` (Lord Howe Island, +10:30 in
    /// winter and +11 in summer).
    static func suited(to zone: TimeZone) -> RollupGrid {
        HourPhase(localHoursOf: zone) != nil ? .hour : .quarterHour
    }
}

extension HourPhase {
    /// The phase at which every local hour of `zone` begins from 2000 through 2099, or
    /// `nil` when its offsets over that time put local hours at different minutes of the
    /// UTC hour. Samples of earlier years in a zone whose hours then began elsewhere
    /// (Nepal before 1986) are read from raw samples.
    init?(localHoursOf zone: TimeZone) {
        let offsets = ZoneOffsets(zone: zone, from: 946_684_800_000, to: 4_102_444_800_000)
        let phases = Set(offsets.offsets.map { HourPhase(localHoursAtUTCOffset: $0) })
        guard phases.count == 1, let only = phases.first, let phase = only else { return nil }
        self = phase
    }
}
