import Foundation
import TrendStore

/// Aggregates computed the slow, obvious way, to check the engine against.
///
/// The timeline is cut into 30-second steps (every offset and transition since 1970
/// falls on a multiple of 30 seconds), each labelled with its local date and
/// wall-clock hour as `TimeZone` gives them. A sample's share of a bucket is summed
/// step by step. Nothing here shares code with the engine.
public struct ReferenceAggregator {
    private static let step: Int64 = 30_000
    private let firstStep: Int64
    private let dates: [Int64]  // local day number of each step
    private let hours: [Int]  // wall-clock hour of each step
    /// The zone whose wall clock labels the steps.
    public let zone: TimeZone

    /// Labels every step from a day before `from` to a day after `through`.
    public init(zone: TimeZone, from: LocalDate, through: LocalDate) {
        self.zone = zone
        let start = (from.dayNumber - 2) * 86_400_000
        let end = (through.dayNumber + 3) * 86_400_000
        firstStep = start
        var dates: [Int64] = []
        var hours: [Int] = []
        var instant = start
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        while instant < end {
            let date = Date(timeIntervalSince1970: Double(instant) / 1000)
            let parts = calendar.dateComponents([.year, .month, .day, .hour], from: date)
            dates.append(
                LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!.dayNumber)
            hours.append(parts.hour!)
            instant += Self.step
        }
        self.dates = dates
        self.hours = hours
    }

    /// The figures of `date`: hour buckets, whether any sample overlaps it, and the
    /// count and value sum of samples starting in it. With `now`, only `[day start, now]` counts.
    public func figures(of date: LocalDate, samples: [Sample], now: Int64? = nil)
        -> (hourly: [Double], hasData: Bool, count: Int, total: Double)
    {
        var hourly = [Double](repeating: 0, count: 24)
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
            if let (startDate, startHour) = label(of: start), startDate == date.dayNumber {
                count += 1
                total += sample.value
                if end == start && start <= limit {
                    hourly[startHour] += sample.value
                    hasData = true
                }
            }
            guard end > start else { continue }
            let from = max(start, lowest)
            var stepStart = from - (from - firstStep) % Self.step
            while stepStart < min(end, limit, highest) {
                let index = Int((stepStart - firstStep) / Self.step)
                if index >= 0 && index < dates.count && dates[index] == date.dayNumber {
                    let overlap = min(end, stepStart + Self.step, limit) - max(start, stepStart)
                    if overlap > 0 {
                        hourly[hours[index]] += sample.value * Double(overlap) / Double(end - start)
                        hasData = true
                    }
                }
                stepStart += Self.step
            }
        }
        return (hourly, hasData, count, total)
    }

    /// The first instant of `date`: the first step labelled with it.
    public func start(of date: LocalDate) -> Int64? {
        dates.firstIndex(of: date.dayNumber).map { firstStep + Int64($0) * Self.step }
    }

    /// The greatest end among samples overlapping `[start of the date of now, now]`.
    public func latestSampleTimestamp(samples: [Sample], now: Int64) -> Int64? {
        guard let (today, _) = label(of: now), let dayStart = start(of: LocalDate(dayNumber: today))
        else { return nil }
        return samples.filter { sample in
            sample.endMilliseconds == sample.startMilliseconds
                ? sample.startMilliseconds >= dayStart && sample.startMilliseconds <= now
                : sample.startMilliseconds < now && sample.endMilliseconds > dayStart
        }.map(\.endMilliseconds).max()
    }

    /// The local date holding `instant`, by `TimeZone`.
    public func date(of instant: Int64) -> LocalDate? {
        label(of: instant).map { LocalDate(dayNumber: $0.0) }
    }

    /// The weekday average as SPEC §3.2 defines it, from per-day reference curves.
    public func weekdayAverage(
        samples: [Sample], weekday: Int, now: Int64, windowDays: Int = 70,
        includeEmpty: Bool = false
    )
        -> (days: [LocalDate], pattern: [Double]?)
    {
        guard let today = date(of: now) else { return ([], nil) }
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

    private func label(of instant: Int64) -> (Int64, Int)? {
        let index = (instant - firstStep) / Self.step
        guard instant >= firstStep, index < dates.count else { return nil }
        return (dates[Int(index)], hours[Int(index)])
    }
}

/// Whether `actual` equals `expected` within 1e-9, relative to `scale` (at least 1e-9 absolute).
public func approximatelyEqual(_ actual: Double, _ expected: Double, scale: Double = 1) -> Bool {
    abs(actual - expected) <= 1e-9 * max(abs(expected), scale, 1)
}
