import Foundation
import TrendStore

/// Aggregates computed the slow, obvious way, to check the engine against.
///
/// The timeline is cut into 30-second steps (every offset and transition since 1970
/// falls on a multiple of 30 seconds), each labelled with its local date and
/// wall-clock hour as `Calendar` gives them, on first use. A sample's share of a bucket
/// is summed step by step. Nothing here shares code with the engine.
public final class ReferenceAggregator {
    private static let step: Int64 = 30_000
    private var labels: [Int64: (date: Int64, hour: Int)] = [:]
    private let calendar: Calendar
    /// The zone whose wall clock labels the steps.
    public let zone: TimeZone

    /// A reference for `zone`; steps are labelled as the queries reach them.
    public init(zone: TimeZone) {
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// A reference for `zone` (the dates are no longer needed: steps are labelled lazily).
    public convenience init(zone: TimeZone, from: LocalDate, through: LocalDate) {
        self.init(zone: zone)
    }

    /// The figures of `date`: hour buckets, whether any sample overlaps it, the count and
    /// value sum of samples starting in it, and each hour's sum of absolute shares (a
    /// scale for comparing floating-point sums). With `now`, only `[day start, now]` counts.
    public func figures(of date: LocalDate, samples: [Sample], now: Int64? = nil)
        -> (hourly: [Double], hasData: Bool, count: Int, total: Double)
    {
        let result = detailedFigures(of: date, samples: samples, now: now)
        return (result.hourly, result.hasData, result.count, result.total)
    }

    /// The cumulative hourly curve of `date`: ``figures(of:samples:now:)``'s hours summed up to
    /// each hour's end.
    public func cumulativeCurve(of date: LocalDate, samples: [Sample], now: Int64? = nil)
        -> [Double]
    {
        var running = 0.0
        return figures(of: date, samples: samples, now: now).hourly.map {
            running += $0
            return running
        }
    }

    /// ``figures(of:samples:now:)`` with each hour's sum of absolute shares beside it.
    public func detailedFigures(of date: LocalDate, samples: [Sample], now: Int64? = nil)
        -> (hourly: [Double], magnitude: [Double], hasData: Bool, count: Int, total: Double)
    {
        var hourly = [Double](repeating: 0, count: 24)
        var magnitude = [Double](repeating: 0, count: 24)
        var hasData = false
        var count = 0
        var total = 0.0
        let limit = now ?? .max
        // No instant more than 26 hours from the date's wall-clock span can belong to it.
        let lowest = date.dayNumber * 86_400_000 - 26 * 3_600_000
        let highest = (date.dayNumber + 1) * 86_400_000 + 26 * 3_600_000
        for sample in samples
        where sample.startMilliseconds < highest && sample.endMilliseconds >= lowest {
            let start = sample.startMilliseconds
            let end = sample.endMilliseconds
            let (startDate, startHour) = label(of: start)
            if startDate == date.dayNumber {
                count += 1
                total += sample.value
                if end == start && start <= limit {
                    hourly[startHour] += sample.value
                    magnitude[startHour] += abs(sample.value)
                    hasData = true
                }
            }
            guard end > start else { continue }
            let from = max(start, lowest)
            var stepStart = from - from.floorModulo(Self.step)
            while stepStart < min(end, limit, highest) {
                let (stepDate, stepHour) = label(of: stepStart)
                if stepDate == date.dayNumber {
                    let overlap = min(end, stepStart + Self.step, limit) - max(start, stepStart)
                    if overlap > 0 {
                        let share = sample.value * Double(overlap) / Double(end - start)
                        hourly[stepHour] += share
                        magnitude[stepHour] += abs(share)
                        hasData = true
                    }
                }
                stepStart += Self.step
            }
        }
        return (hourly, magnitude, hasData, count, total)
    }

    /// The first instant of `date`: the first step labelled with it.
    public func start(of date: LocalDate) -> Int64? {
        var instant = date.dayNumber * 86_400_000 - 26 * 3_600_000
        let end = (date.dayNumber + 1) * 86_400_000 + 26 * 3_600_000
        while instant < end {
            if label(of: instant).date == date.dayNumber { return instant }
            instant += Self.step
        }
        return nil
    }

    /// The greatest end among samples starting at or before `now` that overlap
    /// `[start of the date of now, now]`.
    public func latestSampleTimestamp(samples: [Sample], now: Int64) -> Int64? {
        guard let dayStart = start(of: date(of: now)) else { return nil }
        return samples.filter { sample in
            sample.endMilliseconds == sample.startMilliseconds
                ? sample.startMilliseconds >= dayStart && sample.startMilliseconds <= now
                : sample.startMilliseconds <= now && sample.endMilliseconds > dayStart
        }.map(\.endMilliseconds).max()
    }

    /// The local date holding `instant`, by `Calendar`.
    public func date(of instant: Int64) -> LocalDate {
        LocalDate(dayNumber: label(of: instant).date)
    }

    /// The weekday average (the mean curve of the non-empty matching days of the 70 before today), from per-day reference curves.
    public func weekdayAverage(
        samples: [Sample], weekday: Int, now: Int64, windowDays: Int = 70,
        includeEmpty: Bool = false
    )
        -> (days: [LocalDate], pattern: [Double]?)
    {
        let today = date(of: now)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        var included: [(LocalDate, [Double])] = []
        for back in stride(from: windowDays, through: 1, by: -1) {
            let day = today.adding(days: -back)
            let noon = utc.date(
                from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
            guard utc.component(.weekday, from: noon) == weekday else { continue }
            let figures = figures(of: day, samples: samples)
            guard includeEmpty || figures.hasData else { continue }
            var running = 0.0
            included.append(
                (
                    day,
                    figures.hourly.map {
                        running += $0; return running
                    }
                ))
        }
        guard !included.isEmpty else { return ([], nil) }
        let pattern = (0..<24).map { hour in
            included.map { $0.1[hour] }.reduce(0, +) / Double(included.count)
        }
        return (included.map(\.0), pattern)
    }

    /// The local date and wall-clock hour of the 30-second step holding `instant`.
    private func label(of instant: Int64) -> (date: Int64, hour: Int) {
        let step = instant - instant.floorModulo(Self.step)
        if let known = labels[step] { return known }
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour], from: Date(timeIntervalSince1970: Double(step) / 1000))
        let label = (
            LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!.dayNumber,
            parts.hour!
        )
        labels[step] = label
        return label
    }
}

extension Int64 {
    /// The remainder of flooring division: in `0..<divisor` for a positive divisor.
    fileprivate func floorModulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

/// Whether `actual` equals `expected` within 1e-9, relative to `scale` (at least 1e-9 absolute).
public func approximatelyEqual(_ actual: Double, _ expected: Double, scale: Double = 1) -> Bool {
    abs(actual - expected) <= 1e-9 * max(abs(expected), scale, 1)
}
