import Foundation
import TrendStore

/// Makes realistic, deterministic datasets: minute-cadence active energy with a daily
/// shape, gaps and empty days, plus about one activity a day of several types.
///
/// Each day is generated from `(seed, date)` alone, so a longer dataset ending on the
/// same date contains a shorter one's days exactly.
///
/// ```swift
/// let generator = DatasetGenerator(.init(days: 70, endDate: LocalDate("2026-11-21")!))
/// try generator.generate { entry in try await store.write([entry]) }
/// ```
public struct DatasetGenerator: Sendable {
    /// What to generate.
    public struct Configuration: Sendable {
        /// How many local days, ending with `endDate`.
        public var days: Int
        /// The last local date generated (inclusive).
        public var endDate: LocalDate
        /// The seed; the same seed gives the same data.
        public var seed: UInt64 = 1
        /// The zone whose local days shape the data.
        public var timeZone: TimeZone = .current
        /// The share of days with no samples at all.
        public var emptyDayFraction = 0.03
        /// The energy series' name (unit `kcal`).
        public var energySeries = "activeEnergy"
        /// The decimal places of the energy values (0 to 9).
        public var energyDecimals = 3
        /// The activity series' names (unit `m`, value = distance).
        public var activityTypes = ["Run", "Ride", "Walk", "Swim", "Hike"]
        /// The discrete heart-rate series' name (unit `count/min`), or `nil` for none: a
        /// reading every 5 seconds during the day's activity, every 5 minutes otherwise
        /// (unless `shape` says otherwise).
        public var heartRateSeries: String?
        /// The spacing, durations and order of the energy and heart-rate samples.
        public var shape = SampleShape()

        /// A configuration of `days` days ending on `endDate`.
        public init(days: Int, endDate: LocalDate) {
            self.days = days
            self.endDate = endDate
        }
    }

    /// What is generated.
    public let configuration: Configuration

    /// Creates a generator.
    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// 10⁰ through 10⁹, exact.
    private static let powersOfTen: [Double] = (0...9).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Active energy per minute (kcal) by local hour, before daily and per-minute variation.
    private static let hourlyShape: [Double] = [
        0.08, 0.07, 0.07, 0.07, 0.07, 0.09, 0.25, 0.6, 0.9, 0.7, 0.6, 0.7,
        0.9, 0.7, 0.6, 0.6, 0.7, 0.9, 1.0, 0.8, 0.6, 0.4, 0.2, 0.1,
    ]
    private static let distanceRanges: [String: ClosedRange<Double>] = [
        "Run": 3_000...15_000, "Ride": 10_000...60_000, "Walk": 1_000...6_000, "Swim": 500...3_000,
        "Hike": 5_000...20_000,
    ]

    /// The local dates generated, oldest first.
    public var dates: [LocalDate] {
        let first = configuration.endDate.adding(days: -(configuration.days - 1))
        return (first.dayNumber...configuration.endDate.dayNumber).map(LocalDate.init(dayNumber:))
    }

    /// Calls `body` with each day's samples, oldest day first: energy, then the day's activity if any.
    public func generate(_ body: (SeriesSamples) throws -> Void) rethrows {
        for date in dates {
            for entry in day(date) { try body(entry) }
        }
    }

    /// The samples of one local date: nothing for an empty day or a date the zone skips
    /// (Samoa's 2011-12-30), else energy and maybe an activity.
    public func day(_ date: LocalDate) -> [SeriesSamples] {
        let dayStart = date.firstInstant(in: configuration.timeZone)
        let nextStart = date.adding(days: 1).firstInstant(in: configuration.timeZone)
        guard dayStart < nextStart else { return [] }
        var random = SeededGenerator(
            seed: configuration.seed &* 0x9E37_79B9 &+ UInt64(bitPattern: date.dayNumber))
        guard Double.random(in: 0..<1, using: &random) >= configuration.emptyDayFraction else {
            return []
        }
        let activity = makeActivity(dayStart: dayStart.millisecondsSince1970, random: &random)
        var entries = [
            SeriesSamples(
                series: configuration.energySeries, unit: "kcal",
                samples: energy(
                    from: dayStart.millisecondsSince1970, to: nextStart.millisecondsSince1970,
                    weekday: date.weekday.rawValue,
                    activity: activity?.sample, random: &random))
        ]
        if let activity {
            entries.append(
                SeriesSamples(series: activity.type, unit: "m", samples: [activity.sample]))
        }
        if let heartRateSeries = configuration.heartRateSeries {
            entries.append(
                SeriesSamples(
                    series: heartRateSeries, unit: "count/min", kind: .discrete,
                    samples: heartRate(
                        from: dayStart.millisecondsSince1970, to: nextStart.millisecondsSince1970,
                        activity: activity?.sample, random: &random)))
        }
        return entries
    }

    private func makeActivity(dayStart: Int64, random: inout SeededGenerator) -> (
        type: String, sample: Sample
    )? {
        guard !configuration.activityTypes.isEmpty, Double.random(in: 0..<1, using: &random) < 0.85
        else { return nil }
        let type = configuration.activityTypes.randomElement(using: &random)!
        let start = dayStart + Int64.random(in: 6 * 3_600_000..<19 * 3_600_000, using: &random)
        let duration = Int64.random(in: 20 * 60_000...120 * 60_000, using: &random)
        let range = Self.distanceRanges[type] ?? 1_000...10_000
        let metres = (Double.random(in: range, using: &random) * 10).rounded() / 10
        return (
            type, Sample(startMilliseconds: start, endMilliseconds: start + duration, value: metres)
        )
    }

    /// Heart-rate readings (instants, whole beats per minute): every 5 minutes at rest,
    /// every 5 seconds during `activity`.
    private func heartRate(
        from dayStart: Int64, to dayEnd: Int64, activity: Sample?, random: inout SeededGenerator
    ) -> [Sample] {
        var samples: [Sample] = []
        var cursor = dayStart + Int64.random(in: 0..<300_000, using: &random)
        while cursor < dayEnd {
            let active =
                activity.map { cursor >= $0.startMilliseconds && cursor < $0.endMilliseconds }
                ?? false
            let hour = Int((cursor - dayStart) / 3_600_000)
            let resting = hour < 6 ? 52.0 : 64.0
            let beats =
                active
                ? Double.random(in: 125...170, using: &random)
                : resting + Double.random(in: 0...18, using: &random)
            samples.append(
                Sample(startMilliseconds: cursor, endMilliseconds: cursor, value: beats.rounded()))
            if let gaps = configuration.shape.heartRateGaps {
                cursor += Int64.random(in: gaps, using: &random)
            } else {
                cursor += active ? 5_000 : 300_000
            }
        }
        return samples
    }

    private func energy(
        from dayStart: Int64, to dayEnd: Int64, weekday: Int, activity: Sample?,
        random: inout SeededGenerator
    ) -> [Sample] {
        let dayFactor =
            Double.random(in: 0.7...1.3, using: &random) * (weekday == 1 || weekday == 7 ? 1.2 : 1)
        var gap: Range<Int64> = 0..<0
        if Double.random(in: 0..<1, using: &random) < 0.3 {
            let gapStart =
                dayStart + Int64.random(in: 19 * 3_600_000..<23 * 3_600_000, using: &random)
            gap =
                gapStart..<(gapStart + Int64.random(in: 30 * 60_000...90 * 60_000, using: &random))
        }
        var samples: [Sample] = []
        samples.reserveCapacity(1_450)
        let scale = Self.powersOfTen[min(max(configuration.energyDecimals, 0), 9)]
        let shape = configuration.shape
        var cursor = dayStart + Int64.random(in: 0..<60_000, using: &random)
        while cursor < dayEnd {
            let duration =
                shape.duration
                + Int64.random(in: -shape.durationJitter...shape.durationJitter, using: &random)
            defer { cursor += duration + Self.gap(shape, random: &random) }
            if gap.contains(cursor) { continue }
            let hour = min(23, Int((cursor - dayStart) / 3_600_000))
            var perMinute =
                Self.hourlyShape[hour] * dayFactor * Double.random(in: 0.5...1.5, using: &random)
            if let activity,
                cursor >= activity.startMilliseconds && cursor < activity.endMilliseconds
            {
                perMinute = Double.random(in: 8...12, using: &random)
            }
            let value = (perMinute * Double(duration) / 60_000 * scale).rounded() / scale
            samples.append(
                Sample(startMilliseconds: cursor, endMilliseconds: cursor + duration, value: value))
            if shape.overlapProbability > 0,
                Double.random(in: 0..<1, using: &random) < shape.overlapProbability
            {
                let start = cursor + Int64.random(in: 0..<duration, using: &random)
                let length = duration * Int64.random(in: 1...5, using: &random)
                let other = (perMinute * Double(length) / 60_000 * scale).rounded() / scale
                samples.append(
                    Sample(startMilliseconds: start, endMilliseconds: start + length, value: other))
            }
        }
        if shape.outOfOrderProbability > 0 {
            var index = 0
            while index + 1 < samples.count {
                if Double.random(in: 0..<1, using: &random) < shape.outOfOrderProbability {
                    samples.swapAt(index, index + 1)
                    index += 1
                }
                index += 1
            }
        }
        return samples
    }

    /// The gap before the next energy sample: none with the shape's contiguous probability,
    /// else 1 ms up to its maximum gap.
    private static func gap(_ shape: SampleShape, random: inout SeededGenerator) -> Int64 {
        guard shape.contiguousProbability < 1,
            Double.random(in: 0..<1, using: &random) >= shape.contiguousProbability
        else { return 0 }
        return Int64.random(in: 1...max(1, shape.maximumGap), using: &random)
    }
}
