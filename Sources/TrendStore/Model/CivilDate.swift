/// Conversions between proleptic Gregorian dates and day numbers (days since 1970-01-01).
///
/// Integer arithmetic only (Howard Hinnant's algorithms), so hot paths never call `Calendar`.
enum CivilDate {
    /// The day number of a year, month (1…12) and day (1…31).
    static func dayNumber(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day number.
    static func fromDayNumber(_ number: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The `Calendar` weekday of a day number: 1 = Sunday … 7 = Saturday (1970-01-01 was a Thursday).
    static func weekday(ofDayNumber number: Int64) -> Int {
        Int((number + 4).floorModulo(7)) + 1
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    @inline(__always)
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of ``floorDivided(by:)``, always in `0..<divisor` for a positive divisor.
    @inline(__always)
    func floorModulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
