import Foundation
import LMDB

/// Which days a weekday average looks at.
public struct WeekdayAverageOptions: Sendable, Equatable, Codable {
    /// How far back to look.
    public enum Window: Sendable, Equatable, Codable {
        /// The `n` days before today (70 by default: ten of each weekday).
        case days(Int)
        /// Every day from the series' first sample to yesterday.
        case allTime
    }

    /// How far back to look.
    public var window: Window = .days(70)
    /// Whether days without any sample count as days of zeros (`false`: they are left out).
    public var includeEmptyDays = false
    /// Compute from the raw samples instead of the rollups: same figures, far slower. For
    /// the tests that hold the rollups to the samples and the benchmarks that show what the
    /// rollups buy; not encoded.
    package var fromRawSamples = false

    /// The defaults: the last 70 days, empty days left out.
    public init(window: Window = .days(70), includeEmptyDays: Bool = false) {
        self.window = window
        self.includeEmptyDays = includeEmptyDays
    }

    /// Options that compute from the raw samples when `fromRawSamples` (tests, benchmarks).
    package init(
        window: Window = .days(70), includeEmptyDays: Bool = false, fromRawSamples: Bool
    ) {
        self.init(window: window, includeEmptyDays: includeEmptyDays)
        self.fromRawSamples = fromRawSamples
    }

    private enum CodingKeys: String, CodingKey {
        case window, includeEmptyDays
    }
}

/// The average cumulative hourly pattern of one weekday: "a typical Monday".
///
/// Averages the cumulative curves of the matching days before today (for the default
/// 70-day window, exactly ten candidate days), leaving out days without samples unless
/// asked to include them.
public struct WeekdayAverage: Sendable, Codable, Equatable {
    /// The series averaged.
    public var series: String
    /// The weekday averaged.
    public var weekday: Weekday
    /// The days whose curves were averaged, oldest first.
    public var days: [LocalDate]
    /// The mean cumulative value at the end of each hour bucket, or `nil` when no day was included.
    public var averageHourlyPattern: [Double]?
    /// The mean day total, or `nil` when no day was included.
    public var projectedTotal: Double?

    /// How many days were averaged.
    public var dayCount: Int { days.count }

    /// Creates an average.
    public init(
        series: String, weekday: Weekday, days: [LocalDate], averageHourlyPattern: [Double]?,
        projectedTotal: Double?
    ) {
        self.series = series
        self.weekday = weekday
        self.days = days
        self.averageHourlyPattern = averageHourlyPattern
        self.projectedTotal = projectedTotal
    }

    /// The pattern at a fractional hour of the day, for placing a "now" marker.
    ///
    /// Interpolates linearly between `(h, C[h−1])` and `(h+1, C[h])`, with `C[−1] = 0`
    /// at midnight: `value(atHour: 9.5)` is halfway through the 09:00 bucket.
    ///
    /// - Parameter hour: A time of day in hours, clamped to `0...24`.
    /// - Returns: `nil` when there is no pattern.
    public func value(atHour hour: Double) -> Double? {
        guard let pattern = averageHourlyPattern else { return nil }
        let clamped = min(max(hour, 0), 24)
        let bucket = min(Int(clamped.rounded(.down)), 23)
        let fraction = clamped - Double(bucket)
        let before = bucket == 0 ? 0 : pattern[bucket - 1]
        return before + fraction * (pattern[bucket] - before)
    }
}

/// Adds up the cumulative curves of one weekday's candidate days, one day at a time, into
/// a ``WeekdayAverage``: what a query over all time feeds without keeping the days' figures.
struct WeekdayCurveSum {
    let weekday: Weekday
    /// Whether days without any sample count as days of zeros.
    let includeEmptyDays: Bool
    /// The days added so far, oldest first.
    private(set) var days: [LocalDate] = []
    /// The sum of the added days' cumulative curves, hour by hour.
    private var sums = [Double](repeating: 0, count: 24)

    init(weekday: Weekday, includeEmptyDays: Bool) {
        self.weekday = weekday
        self.includeEmptyDays = includeEmptyDays
    }

    /// Adds the figures of `date` (later than every day added before), unless it is empty
    /// and empty days are left out.
    mutating func add(_ date: LocalDate, _ figures: LocalDayFigures) {
        guard includeEmptyDays || figures.hasData else { return }
        days.append(date)
        var running = 0.0
        for hour in 0..<24 {
            running += figures.hourly[hour]
            sums[hour] += running
        }
    }

    /// The average of the days added, `series` named as given.
    func average(series: String) -> WeekdayAverage {
        guard !days.isEmpty else {
            return WeekdayAverage(
                series: series, weekday: weekday, days: [], averageHourlyPattern: nil,
                projectedTotal: nil)
        }
        let pattern = sums.map { $0 / Double(days.count) }
        return WeekdayAverage(
            series: series, weekday: weekday, days: days,
            averageHourlyPattern: pattern, projectedTotal: pattern[23])
    }
}

/// Weekday averages, computed inside any transaction.
extension Queries {
    /// The weekday averages of `weekdays`, and the instants their candidate days span.
    func weekdayAverages<T: ReadableTransaction & ~Copyable>(
        of series: String, weekdays: [Weekday], now: Date, options: WeekdayAverageOptions,
        zone: TimeZone, source: String? = nil, in txn: borrowing T
    ) throws -> (averages: [WeekdayAverage], window: Range<Int64>) {
        _ = try SampleRules.instant(now, argument: .now)
        let today = LocalDate(containing: now, in: zone)
        let record = try requireCumulative(series, for: "a weekday average", in: txn)
        let empty = weekdays.map {
            WeekdayAverage(
                series: record.name, weekday: $0, days: [], averageHourlyPattern: nil,
                projectedTotal: nil)
        }
        let first: LocalDate
        switch options.window {
        case .days(let count):
            guard count > 0 else {
                throw StoreError.invalidArgument(
                    .window, reason: "the window must be at least one day, not \(count)")
            }
            first = today.adding(days: -count)
        case .allTime:
            guard let start = try storage.firstStart(of: record, in: txn) else {
                return (empty, 0..<0)
            }
            first = min(LocalDate(containing: Date(milliseconds: start), in: zone), today)
        }
        let grid = LocalDayGrid(zone: zone, from: first, through: today)
        // Every candidate day's instants: a date can end after the next one began.
        let window =
            grid.bounds(of: first)
            .start..<max(
                grid.bounds(of: today).start, grid.bounds(of: today.adding(days: -1)).end)
        // The curve sum of each weekday asked for, at its raw value − 1 (Sunday first).
        var curves = [WeekdayCurveSum?](repeating: nil, count: 7)
        for weekday in weekdays {
            curves[weekday.rawValue - 1] = WeekdayCurveSum(
                weekday: weekday, includeEmptyDays: options.includeEmptyDays)
        }
        let dates = stride(from: first.dayNumber, to: today.dayNumber, by: 1).map(
            LocalDate.init(dayNumber:)
        )
        .filter { curves[Weekday(of: $0).rawValue - 1] != nil }
        try aggregator(
            of: record, source: source, usesRollups: !options.fromRawSamples, in: txn
        )
        .forEachDay(of: dates, in: grid, txn: txn) { index, figures in
            curves[Weekday(of: dates[index]).rawValue - 1]?.add(dates[index], figures)
        }
        let averages = weekdays.compactMap { curves[$0.rawValue - 1]?.average(series: record.name) }
        return (averages, window)
    }
}
