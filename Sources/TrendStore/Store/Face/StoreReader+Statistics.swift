import Foundation

extension StoreReader where Self: ~Copyable {
    /// Per-interval statistics of a series, like HealthKit's statistics collection query:
    /// one bucket per interval of `[from, to)`, in time order, empty ones included.
    ///
    /// Minute and hour buckets are fixed lengths of absolute time aligned to `anchor`
    /// (default: local midnight of `from`). Day buckets are wall-clock dates in the zone
    /// (23, 24 or 25 hours; a date the zone skips has no bucket); week buckets are seven
    /// dates from the anchor's date, so they start on its weekday; month buckets are
    /// calendar months. The range snaps outward to whole buckets.
    ///
    /// For a cumulative series, `sum` is prorated over each bucket and `count` counts the
    /// samples starting in it; average, minimum, maximum and most recent are errors. For a
    /// discrete series a sample belongs to the bucket holding its start, and the figures
    /// are over those members. A figure of a bucket without data is `nil`, never 0.
    ///
    /// ```swift
    /// let days = try store.statistics(
    ///     of: "heartRate", from: weekStart, to: weekEnd, interval: .days(1),
    ///     options: [.average, .minimum, .maximum])
    /// for bucket in days.buckets { print(bucket.start, bucket.average ?? .nan) }
    /// ```
    ///
    /// - Parameters:
    ///   - series: The series name.
    ///   - from: The first instant of the range (a bucket holding it is the first).
    ///   - to: The instant after the range.
    ///   - interval: The bucket length.
    ///   - anchor: An instant on the bucket grid (default: local midnight of `from`).
    ///   - timeZone: The zone of calendar buckets (default: the store's).
    ///   - options: The figures to compute.
    ///   - source: One source whose figures alone are wanted (default: every source, merged
    ///     by the series' priority order; a discrete series' sources all count).
    /// - Throws: ``StoreError/Code/unknownSeries``,
    ///   ``StoreError/Code/unsupportedForKind`` for an average, minimum,
    ///   maximum or most recent of a cumulative series, ``StoreError/Code/invalidArgument(_:)``
    ///   for an empty range or more than a million buckets.
    /// - Complexity: Reads the rollup row of each UTC day the range touches; decodes raw
    ///   samples only where a bucket's edge is not on a quarter-hour.
    public func statistics(
        of series: String, from: Date, to: Date, interval: StatisticsInterval,
        anchor: Date? = nil, timeZone: TimeZone? = nil, options: StatisticsOptions,
        source: String? = nil
    ) throws -> IntervalStatistics {
        try read { snapshot in
            snapshot.region?.read(series)
            return try snapshot.engine.queries.statistics(
                of: series, from: from, to: to, interval: interval, anchor: anchor,
                zone: timeZone ?? snapshot.engine.timeZone, options: options, source: source,
                in: snapshot.transaction)
        }
    }
}
