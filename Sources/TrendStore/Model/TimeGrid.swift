/// Fixed time grids of the store, in milliseconds.
enum TimeGrid {
    static let minute: Int64 = 60_000
    static let quarterHour: Int64 = 900_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// The days whose first instant, and the instants a few days around it, fit in Int64
    /// milliseconds: a day number read from a damaged key may be any number.
    static let representableDays: ClosedRange<Int64> =
        (-(Int64.max / day) + 8)...(Int64.max / day - 8)

    /// The first instant of UTC day `day`, or `nil` for a day beyond ``representableDays``.
    static func checkedStart(ofDay day: Int64) -> Int64? {
        representableDays.contains(day) ? day * Self.day : nil
    }

    /// The first instant of UTC day `day`, held to the representable range: for naming
    /// where a damaged key claims to be.
    static func clampedStart(ofDay day: Int64) -> Int64 {
        min(max(day, representableDays.lowerBound), representableDays.upperBound) * Self.day
    }
}
