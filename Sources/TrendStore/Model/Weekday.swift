/// A day of the week, numbered as `Calendar` numbers them: 1 = Sunday … 7 = Saturday.
///
/// ```swift
/// let mondays = try store.weekdayAverage(of: "activeEnergy", weekday: .monday)
/// ```
public enum Weekday: Int, CaseIterable, Sendable, Codable, Comparable, CustomStringConvertible {
    case sunday = 1
    case monday, tuesday, wednesday, thursday, friday, saturday

    /// The weekday of `date`.
    public init(of date: LocalDate) {
        self.init(ofDayNumber: date.dayNumber)
    }

    /// The weekday of the day `dayNumber` days after 1970-01-01 (a Thursday).
    init(ofDayNumber dayNumber: Int64) {
        self = Weekday(rawValue: CivilDate.weekday(ofDayNumber: dayNumber)) ?? .sunday
    }

    /// Orders Sunday first, as the numbers do.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The English name, capitalised: `Monday`.
    public var description: String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][rawValue - 1]
    }
}
