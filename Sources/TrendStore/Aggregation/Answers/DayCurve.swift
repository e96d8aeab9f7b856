import Foundation

/// The cumulative hourly curve of one series over one local day.
///
/// `cumulative[h]` is everything from the start of the day through the end of hour
/// bucket `h`, with samples prorated by time; `cumulative[23]` is the day's total. For
/// today it counts only what happened before the reference instant.
public struct DayCurve: Sendable, Codable, Equatable {
    /// The series the curve is of.
    public var series: String
    /// The local date.
    public var date: LocalDate
    /// The 24 cumulative values.
    public var cumulative: [Double]
    /// For today's curve: the greatest end among the samples overlapping
    /// `[start of today, now]`, or `nil` when there are none. `nil` for other days.
    public var latestSampleTimestamp: Date?

    /// The day's total so far: `cumulative[23]`.
    public var total: Double { cumulative[23] }

    /// The amount of each hour bucket alone.
    public var hourly: [Double] {
        cumulative.indices.map { $0 == 0 ? cumulative[0] : cumulative[$0] - cumulative[$0 - 1] }
    }

    /// Creates a curve.
    public init(series: String, date: LocalDate, cumulative: [Double], latestSampleTimestamp: Date?)
    {
        self.series = series
        self.date = date
        self.cumulative = cumulative
        self.latestSampleTimestamp = latestSampleTimestamp
    }
}
