import Foundation

/// How many samples started on one local day, and the sum of their values.
public struct DayCount: Sendable, Codable, Equatable {
    /// Samples whose start lies in the day.
    public var count: Int
    /// The sum of their whole values (not prorated).
    public var total: Double

    /// Creates a count.
    public init(count: Int, total: Double) {
        self.count = count
        self.total = total
    }
}

/// One day of a heatmap: the figures of all its series together and of each alone.
public struct HeatmapDay: Sendable, Codable, Equatable {
    /// The local date.
    public var date: LocalDate
    /// Samples of all the heatmap's series starting in the day.
    public var count: Int
    /// The sum of their values.
    public var total: Double
    /// The same figures for each series.
    public var bySeries: [String: DayCount]

    /// Creates a day.
    public init(date: LocalDate, count: Int, total: Double, bySeries: [String: DayCount]) {
        self.date = date
        self.count = count
        self.total = total
        self.bySeries = bySeries
    }
}

/// Per-day counts and totals of a set of series over a range of local dates, such as
/// activities per day for a contribution-graph calendar.
public struct Heatmap: Sendable, Codable, Equatable {
    /// The cache bucket of the series set: their names sorted and joined by `,`.
    public var bucket: String
    /// One entry per date of the range, empty days included, oldest first.
    public var days: [HeatmapDay]

    /// Creates a heatmap.
    public init(bucket: String, days: [HeatmapDay]) {
        self.bucket = bucket
        self.days = days
    }

    /// The bucket key of a set of series: `["Run", "Ride"]` → `"Ride,Run"`.
    public static func bucketKey(for series: some Sequence<String>) -> String {
        Set(series).sorted().joined(separator: ",")
    }
}
