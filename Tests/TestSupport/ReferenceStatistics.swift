import Foundation
import TrendStore

/// One bucket of ``ReferenceStatistics``.
public struct ReferenceBucket: Sendable {
    /// The first instant the bucket reports.
    public var start: Int64
    /// The first instant of the next bucket.
    public var end: Int64
    /// Samples starting in the bucket.
    public var count = 0
    /// The prorated sum (cumulative) or the members' sum (discrete).
    public var sum = 0.0
    /// The sum of the absolute values of what `sum` adds: a scale for comparing sums.
    public var magnitude = 0.0
    /// Whether a sample overlaps the bucket (cumulative) or starts in it (discrete).
    public var hasData = false
    /// The smallest member (discrete).
    public var minimum: Double?
    /// The largest member (discrete).
    public var maximum: Double?
    /// The member with the latest start, then the latest end (discrete).
    public var latest: Sample?
}

/// Interval statistics computed the slow, obvious way from raw samples.
///
/// Local dates come from `Calendar` through ``ReferenceAggregator/date(of:)``, one label per
/// 30-second step (every offset change since 1970 falls on one). A bucket's start is the
/// first instant whose local date is at or after its first date; a sample's share of a
/// calendar bucket is summed step by step. Nothing here shares code with the engine.
public struct ReferenceStatistics {
    private let labels: ReferenceAggregator
    private let utc: Calendar
    private static let step: Int64 = 30_000
    private static let day: Int64 = 86_400_000

    /// A reference for `zone`.
    public init(zone: TimeZone) {
        labels = ReferenceAggregator(zone: zone)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        self.utc = utc
    }

    /// The buckets of `[from, to)` with their figures.
    public func statistics(
        samples: [Sample], discrete: Bool, from: Int64, to: Int64, interval: StatisticsInterval,
        anchor: Int64?
    ) -> [ReferenceBucket] {
        let fromDate = labels.date(of: from).dayNumber
        let anchorDate = labels.date(of: anchor ?? from).dayNumber
        let fixed: Int64? =
            switch interval {
            case .minutes(let n): Int64(n) * 60_000
            case .hours(let n): Int64(n) * 3_600_000
            default: nil
            }
        let origin = anchor ?? firstInstant(onOrAfter: fromDate)
        func index(_ instant: Int64) -> Int64 {
            if let fixed { return floorDiv(instant - origin, fixed) }
            let date = labels.date(of: instant).dayNumber
            switch interval {
            case .days(let n): return floorDiv(date - anchorDate, Int64(n))
            case .weeks(let n): return floorDiv(date - anchorDate, Int64(7 * n))
            case .months(let n): return floorDiv(month(of: date) - month(of: anchorDate), Int64(n))
            default: return 0
            }
        }
        func firstDate(ofBucket k: Int64) -> Int64 {
            switch interval {
            case .days(let n): return anchorDate + k * Int64(n)
            case .weeks(let n): return anchorDate + k * Int64(7 * n)
            case .months(let n):
                let month = month(of: anchorDate) + k * Int64(n)
                let date = utc.date(
                    from: DateComponents(
                        year: Int(floorDiv(month, 12)),
                        month: Int(month - floorDiv(month, 12) * 12) + 1,
                        day: 1))!
                return Int64(date.timeIntervalSince1970) * 1000 / Self.day
            default: return 0
            }
        }
        var buckets: [ReferenceBucket] = []
        var position: [Int64: Int] = [:]
        for k in index(from)...index(to - 1) {
            if let fixed {
                position[k] = buckets.count
                buckets.append(
                    ReferenceBucket(start: origin + k * fixed, end: origin + (k + 1) * fixed))
                continue
            }
            let first = firstDate(ofBucket: k)
            let next = firstDate(ofBucket: k + 1)
            if next - first == 1 && !hasInstants(date: first) { continue }
            position[k] = buckets.count
            buckets.append(
                ReferenceBucket(
                    start: firstInstant(onOrAfter: first), end: firstInstant(onOrAfter: next)))
        }
        guard let low = buckets.first?.start, let high = buckets.last?.end else { return [] }
        // Calendar buckets' instants lie within a day or two of their reported ends.
        let reach = low - 2 * Self.day..<(high + 2 * Self.day)
        func add(_ value: Double, to k: Int64) {
            guard let at = position[k] else { return }
            buckets[at].sum += value
            buckets[at].magnitude += abs(value)
            buckets[at].hasData = true
        }
        for sample in samples {
            let start = sample.startMilliseconds
            let end = sample.endMilliseconds
            guard start < reach.upperBound, end >= reach.lowerBound else { continue }
            let k = index(start)
            if discrete {
                guard let at = position[k] else { continue }
                add(sample.value, to: k)
                buckets[at].count += 1
                buckets[at].minimum = min(buckets[at].minimum ?? .infinity, sample.value)
                buckets[at].maximum = max(buckets[at].maximum ?? -.infinity, sample.value)
                if let latest = buckets[at].latest,
                    (latest.startMilliseconds, latest.endMilliseconds) > (start, end)
                {
                    continue
                }
                buckets[at].latest = sample
                continue
            }
            if let at = position[k] { buckets[at].count += 1 }
            if end == start {
                add(sample.value, to: k)
                continue
            }
            let duration = Double(end - start)
            if let fixed {
                for bucket in buckets {
                    let overlap = min(end, bucket.end) - max(start, bucket.start)
                    if overlap > 0 {
                        add(
                            sample.value * Double(overlap) / duration,
                            to: floorDiv(bucket.start - origin, fixed))
                    }
                }
                continue
            }
            var stepStart = max(start, reach.lowerBound)
            stepStart -= floorMod(stepStart, Self.step)
            while stepStart < min(end, reach.upperBound) {
                let overlap = min(end, stepStart + Self.step) - max(start, stepStart)
                if overlap > 0 {
                    add(sample.value * Double(overlap) / duration, to: index(stepStart))
                }
                stepStart += Self.step
            }
        }
        return buckets
    }

    /// The first instant whose local date is `date` or later, labelled by `reference`.
    public static func firstInstant(of date: LocalDate, reference: ReferenceAggregator) -> Int64 {
        var instant = date.dayNumber * day - 27 * 3_600_000
        while reference.date(of: instant).dayNumber < date.dayNumber { instant += step }
        return instant
    }

    /// The first instant whose local date is `date` or later.
    private func firstInstant(onOrAfter date: Int64) -> Int64 {
        // 27 hours before the date's UTC midnight, every zone's wall clock shows an earlier date.
        var instant = date * Self.day - 27 * 3_600_000
        while labels.date(of: instant).dayNumber < date { instant += Self.step }
        return instant
    }

    /// Whether any instant has local date `date` (false for a date the zone skips).
    private func hasInstants(date: Int64) -> Bool {
        var instant = date * Self.day - 27 * 3_600_000
        while instant < (date + 1) * Self.day + 27 * 3_600_000 {
            if labels.date(of: instant).dayNumber == date { return true }
            instant += Self.step
        }
        return false
    }

    /// Months since year 0 of a day number, by `Calendar` in UTC.
    private func month(of dayNumber: Int64) -> Int64 {
        let parts = utc.dateComponents(
            [.year, .month], from: Date(timeIntervalSince1970: Double(dayNumber) * 86_400))
        return Int64(parts.year!) * 12 + Int64(parts.month!) - 1
    }

    private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}
