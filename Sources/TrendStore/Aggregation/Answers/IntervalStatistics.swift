import Foundation
import LMDB

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

/// Interval statistics, computed inside any transaction.
extension Queries {
    /// Interval statistics of `series` inside any transaction.
    func statistics<T: ReadableTransaction & ~Copyable>(
        of series: String, from: Date, to: Date, interval: StatisticsInterval, anchor: Date?,
        zone: TimeZone, options: StatisticsOptions, fromRawSamples: Bool = false,
        source: String? = nil, in txn: borrowing T
    ) throws -> IntervalStatistics {
        let start = try SampleRules.instant(from, argument: .range)
        let end = try SampleRules.instant(to, argument: .range)
        let anchorInstant = try anchor.map { try SampleRules.instant($0, argument: .anchor) }
        let record = try storage.requireSeries(named: series, in: txn)
        guard !options.isEmpty else {
            throw StoreError.invalidArgument(
                .statistics,
                reason: "ask for at least one of sum, average, minimum, maximum, "
                    + "count, most recent")
        }
        if record.kind == .cumulative && !options.isDisjoint(with: .discreteOnly) {
            throw StoreError.unsupportedForKind(
                series: record.name, kind: .cumulative,
                reason: "average, minimum, maximum and most recent apply to discrete series; "
                    + "ask for sum or count")
        }
        let spans = try StatisticsBuckets.layout(
            from: start, to: end, interval: interval, anchor: anchorInstant, zone: zone)
        let read = try reading(record, source: source, in: txn)
        let figures = try StatisticsAggregator(
            storage: storage, record: read.record, usesRollups: read.usesRollups && !fromRawSamples
        )
        .figures(of: spans, txn: txn)
        let buckets = zip(spans, figures).map { span, figures in
            var bucket = StatisticsBucket(
                start: Date(milliseconds: span.start), end: Date(milliseconds: span.end))
            guard figures.hasData else { return bucket }
            if options.contains(.sum) { bucket.sum = figures.sum }
            if options.contains(.count) { bucket.count = Int(clamping: figures.count) }
            if record.kind == .discrete {
                if options.contains(.average) {
                    bucket.average = figures.sum / Double(figures.count)
                }
                if options.contains(.minimum) { bucket.minimum = figures.minimum }
                if options.contains(.maximum) { bucket.maximum = figures.maximum }
                if options.contains(.mostRecent) { bucket.mostRecent = figures.latest }
            }
            return bucket
        }
        return IntervalStatistics(
            series: record.name, kind: record.kind, timeZone: zone, interval: interval,
            options: options, buckets: buckets)
    }
}
