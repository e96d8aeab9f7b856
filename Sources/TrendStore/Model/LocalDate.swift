import Foundation

/// A calendar date in some time zone, such as 2026-03-08, without a time.
///
/// Stored as the number of days since 1970-01-01 in the proleptic Gregorian calendar,
/// so date arithmetic and weekdays are integer operations. Encodes as `"YYYY-MM-DD"`.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int64

    /// Creates the date `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int64) { self.dayNumber = dayNumber }

    /// Creates a date from its year (1…9999, the years a store holds), month (1…12) and
    /// day (1…31), in the proleptic Gregorian calendar.
    ///
    /// Returns `nil` when the day does not exist in that month, or the year is outside 1…9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let number = CivilDate.dayNumber(year: Int64(year), month: Int64(month), day: Int64(day))
        guard CivilDate.fromDayNumber(number) == (Int64(year), Int64(month), Int64(day)) else {
            return nil
        }
        dayNumber = number
    }

    /// Parses `YYYY-MM-DD` with a year from 0001 to 9999; returns `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), year >= 1, let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The local date holding `date` in `zone`.
    public init(containing date: Date, in zone: TimeZone) {
        let offset = Int64(zone.secondsFromGMT(for: date)) * 1000
        dayNumber = (date.millisecondsSince1970 + offset).floorDivided(by: TimeGrid.day)
    }

    /// The year.
    public var year: Int { Int(CivilDate.fromDayNumber(dayNumber).year) }
    /// The month, 1…12.
    public var month: Int { Int(CivilDate.fromDayNumber(dayNumber).month) }
    /// The day of the month, 1…31.
    public var day: Int { Int(CivilDate.fromDayNumber(dayNumber).day) }
    /// The day of the week.
    public var weekday: Weekday { Weekday(ofDayNumber: dayNumber) }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + Int64(days)) }

    /// `YYYY-MM-DD`.
    public var description: String { UTCFormat.day(dayNumber * TimeGrid.day) }

    /// Orders dates in time.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    /// Decodes `"YYYY-MM-DD"`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "not a YYYY-MM-DD date: \(text)"))
        }
        self = date
    }

    /// Encodes as `"YYYY-MM-DD"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
