import Foundation

/// The figures of one bucket of a statistics query. A figure not asked for, or of a bucket
/// with no data (no member of a discrete series; no sample overlapping it for a cumulative
/// one), is `nil`, never 0.
public struct StatisticsBucket: Sendable, Equatable, Codable {
    /// The bucket's first instant.
    public var start: Date
    /// The first instant of the next bucket.
    public var end: Date
    /// The sum: prorated for a cumulative series, the members' plain sum for a discrete one.
    public var sum: Double?
    /// The members' arithmetic mean (discrete series).
    public var average: Double?
    /// The members' smallest value (discrete series).
    public var minimum: Double?
    /// The members' largest value (discrete series).
    public var maximum: Double?
    /// How many samples start in the bucket.
    public var count: Int?
    /// The member with the latest start, ties broken by the latest end (discrete series).
    public var mostRecent: Sample?

    /// A bucket with the given figures.
    public init(
        start: Date, end: Date, sum: Double? = nil, average: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, count: Int? = nil,
        mostRecent: Sample? = nil
    ) {
        self.start = start
        self.end = end
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.count = count
        self.mostRecent = mostRecent
    }
}

/// The answer of a statistics query: one bucket per interval of the range, in time order,
/// empty ones included.
public struct IntervalStatistics: Sendable, Equatable, Codable {
    /// The series' name.
    public var series: String
    /// The series' kind.
    public var kind: SeriesKind
    /// The zone calendar buckets and the default anchor were computed in.
    public var timeZone: TimeZone
    /// The bucket length.
    public var interval: StatisticsInterval
    /// The figures asked for.
    public var options: StatisticsOptions
    /// The buckets, in time order.
    public var buckets: [StatisticsBucket]

    /// Creates an answer.
    public init(
        series: String, kind: SeriesKind, timeZone: TimeZone, interval: StatisticsInterval,
        options: StatisticsOptions, buckets: [StatisticsBucket]
    ) {
        self.series = series
        self.kind = kind
        self.timeZone = timeZone
        self.interval = interval
        self.options = options
        self.buckets = buckets
    }
}
