import Foundation

extension RollupGrid {
    /// The grid a new store in `zone` gets when its options name none: ``hour`` when every
    /// offset the zone has had since 1970, or has scheduled through 2099, is a whole number of
    /// hours (its local hours are UTC hours), else ``quarterHour``.
    static func suited(to zone: TimeZone) -> RollupGrid {
        let offsets = ZoneOffsets(zone: zone, from: 0, to: 4_102_444_800_000)
        return offsets.offsets.allSatisfy { $0 % TimeGrid.hour == 0 } ? .hour : .quarterHour
    }
}
