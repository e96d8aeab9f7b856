/// The length of the buckets of a statistics query.
///
/// Minutes and hours are fixed lengths of absolute time, aligned to the query's anchor
/// instant. Days, weeks and months are wall-clock calendar units in the query's zone: a day
/// bucket holds the instants whose wall-clock date is that date (23, 24 or 25 hours, or
/// none for a date the zone skips); weeks start on the anchor's local date; months are
/// calendar months from the first of the month.
public enum StatisticsInterval: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `n` minutes of absolute time.
    case minutes(Int)
    /// `n` hours of absolute time.
    case hours(Int)
    /// `n` local dates.
    case days(Int)
    /// `n` runs of seven local dates.
    case weeks(Int)
    /// `n` calendar months.
    case months(Int)

    /// How many units one bucket spans.
    public var count: Int {
        switch self {
        case .minutes(let n), .hours(let n), .days(let n), .weeks(let n), .months(let n): return n
        }
    }

    /// The interval as the CLI spells it: `15min`, `1h`, `1d`, `1w`, `1mo`.
    public var description: String {
        switch self {
        case .minutes(let n): return "\(n)min"
        case .hours(let n): return "\(n)h"
        case .days(let n): return "\(n)d"
        case .weeks(let n): return "\(n)w"
        case .months(let n): return "\(n)mo"
        }
    }

    /// Parses the CLI's spelling: a positive count followed by `min`, `h`, `d`, `w` or `mo`.
    public init?(_ text: String) {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let count = Int(digits), count > 0 else {
            return nil
        }
        switch text.dropFirst(digits.count) {
        case "min": self = .minutes(count)
        case "h": self = .hours(count)
        case "d": self = .days(count)
        case "w": self = .weeks(count)
        case "mo": self = .months(count)
        default: return nil
        }
    }

    /// The bucket length in milliseconds of a minute or hour interval; `nil` for calendar units.
    var fixedLength: Int64? {
        switch self {
        case .minutes(let n): return Int64(n) * TimeGrid.minute
        case .hours(let n): return Int64(n) * TimeGrid.hour
        case .days, .weeks, .months: return nil
        }
    }
}

/// The figures a statistics query computes for each bucket.
public struct StatisticsOptions: OptionSet, Sendable, Hashable, Codable {
    /// The raw value.
    public let rawValue: Int
    /// Creates a set from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The sum: prorated for a cumulative series, the plain sum of the members for a discrete one.
    public static let sum = StatisticsOptions(rawValue: 1)
    /// The arithmetic mean of a discrete series' members.
    public static let average = StatisticsOptions(rawValue: 2)
    /// The smallest value of a discrete series' members.
    public static let minimum = StatisticsOptions(rawValue: 4)
    /// The largest value of a discrete series' members.
    public static let maximum = StatisticsOptions(rawValue: 8)
    /// How many samples start in the bucket.
    public static let count = StatisticsOptions(rawValue: 16)
    /// The member with the latest start (ties: the latest end) of a discrete series.
    public static let mostRecent = StatisticsOptions(rawValue: 32)

    /// The figures of a discrete series that need every member: average, minimum, maximum, most recent.
    static let discreteOnly: StatisticsOptions = [.average, .minimum, .maximum, .mostRecent]
}
