import Foundation
import LMDB

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

/// Today's curve and a day's curve, computed inside any transaction.
extension Queries {
    /// Today's curve up to `now`, inside any transaction.
    func todayCurve<T: ReadableTransaction & ~Copyable>(
        of series: String, now: Date, zone: TimeZone, source: String? = nil, in txn: borrowing T
    ) throws -> DayCurve {
        let instant = try SampleRules.instant(now, argument: .now)
        let today = LocalDate(containing: now, in: zone)
        let grid = LocalDayGrid(zone: zone, from: today, through: today)
        let record = try requireCumulative(series, for: "today's curve", in: txn)
        let aggregator = try self.aggregator(of: record, source: source, in: txn)
        let figures = try aggregator.figures(of: today, in: grid, until: instant, txn: txn)
        let latest = try aggregator.latestEnd(
            from: grid.bounds(of: today).start, now: instant, txn: txn)
        return DayCurve(
            series: record.name, date: today, cumulative: figures.cumulative,
            latestSampleTimestamp: latest.map(Date.init(milliseconds:)))
    }

    /// The whole cumulative hourly curve of `date`.
    func dayCurve<T: ReadableTransaction & ~Copyable>(
        of series: String, on date: LocalDate, zone: TimeZone, source: String? = nil,
        in txn: borrowing T
    ) throws -> DayCurve {
        try SampleRules.checkDates(date)
        let grid = LocalDayGrid(zone: zone, from: date, through: date)
        let record = try requireCumulative(series, for: "a day's curve", in: txn)
        let figures = try aggregator(of: record, source: source, in: txn).figures(
            of: date, in: grid, txn: txn)
        return DayCurve(
            series: record.name, date: date, cumulative: figures.cumulative,
            latestSampleTimestamp: nil)
    }
}
