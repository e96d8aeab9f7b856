import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// Interval statistics against ``ReferenceStatistics`` on random cumulative and discrete data
/// around offset changes, with random intervals and anchors (fixed seeds).
@Suite("Interval statistics equal the reference in awkward zones")
struct StatisticsReferenceTests {
    /// Discrete measurements around `center`: instants and short spans with 0–2 decimals,
    /// repeated starts, and instants on local midnights, quarter-hours and the transition.
    static func measurements(around center: Int64, seed: Int, reference: ReferenceAggregator)
        -> [Sample]
    {
        var generator = SampleGenerator(seed: seed)
        var samples: [Sample] = []
        func value() -> Double {
            Double(generator.integer(in: 300...2_000))
                / [1.0, 10, 100][Int(generator.integer(in: 0...2))]
        }
        for _ in 0..<1_500 {
            let start = center + generator.integer(in: -6 * 86_400_000...6 * 86_400_000)
            let duration =
                generator.integer(in: 0...3) == 0 ? generator.integer(in: 0...600_000) : 0
            samples.append(
                Sample(startMilliseconds: start, endMilliseconds: start + duration, value: value()))
            if generator.integer(in: 0...20) == 0 {
                // The same start, a later end: the later end is the more recent.
                samples.append(
                    Sample(
                        startMilliseconds: start, endMilliseconds: start + duration + 5_000,
                        value: value()))
            }
        }
        let centerDate = reference.date(of: center)
        for offset in -5...5 {
            let midnight = ReferenceStatistics.firstInstant(
                of: centerDate.adding(days: offset), reference: reference)
            samples.append(
                Sample(startMilliseconds: midnight, endMilliseconds: midnight, value: value()))
            samples.append(
                Sample(
                    startMilliseconds: midnight - 1, endMilliseconds: midnight - 1, value: value()))
        }
        let quarter = center - center % 900_000
        for instant in [center, center - 1, quarter, quarter + 900_000, quarter - 1] {
            samples.append(
                Sample(startMilliseconds: instant, endMilliseconds: instant, value: value()))
        }
        return samples
    }

    static let intervals: [StatisticsInterval] = [
        .minutes(15), .minutes(5), .minutes(45), .hours(1), .hours(4), .days(1), .days(3),
        .weeks(1), .months(1),
    ]

    @Test(
        "discrete and cumulative statistics around an offset change, on either rollup grid",
        arguments: ZoneCase.all, RollupGrid.allCases)
    func statistics(zoneCase: ZoneCase, grid: RollupGrid) async throws {
        var options = StoreOptions()
        options.timeZone = zoneCase.zone
        options.rollupGrid = grid
        try await withTemporaryStore(options: options) { store, _ in
            let center = zoneCase.transition
            let labels = ReferenceAggregator(zone: zoneCase.zone)
            let discrete = Self.measurements(
                around: center, seed: Int(center % 9_973), reference: labels)
            let cumulative = samplesAround(center, days: 5, seed: Int(center % 7_919), awkward: 300)
            try await store.write([
                SeriesSamples(
                    series: "heartRate", unit: "count/min", kind: .discrete, samples: discrete),
                SeriesSamples(series: "energy", unit: "kcal", samples: cumulative),
            ])
            #expect(try await store.verify().isHealthy)
            let storedDiscrete = try store.samples(
                of: "heartRate", from: .distantPast, to: .distantFuture)
            let storedCumulative = try store.samples(
                of: "energy", from: .distantPast, to: .distantFuture)
            let reference = ReferenceStatistics(zone: zoneCase.zone)
            var random = SampleGenerator(seed: Int(center % 31_337))
            for round in 0..<14 {
                let interval =
                    round < Self.intervals.count
                    ? Self.intervals[round] : random.pick(Self.intervals)
                let span: Int64 =
                    interval.fixedLength.map { min($0 * 300, 4 * 86_400_000) } ?? 4 * 86_400_000
                let from =
                    center + random.integer(in: -span / 2...0) - random.integer(in: 0...1)
                    * (center % 60_000)
                let to = from + random.integer(in: 1...span)
                let anchor: Int64? =
                    switch random.integer(in: 0...2) {
                    case 0: nil
                    case 1: center - center % 900_000 - random.integer(in: 0...96) * 900_000
                    default: center - random.integer(in: 0...10 * 86_400_000)
                    }
                let context =
                    "\(zoneCase.identifier) \(interval) from \(from) to \(to) anchor \(anchor as Any)"
                for (name, kind, samples) in [
                    ("heartRate", SeriesKind.discrete, storedDiscrete),
                    ("energy", .cumulative, storedCumulative),
                ] {
                    let asked: StatisticsOptions =
                        kind == .discrete
                        ? [.sum, .average, .minimum, .maximum, .count, .mostRecent]
                        : [.sum, .count]
                    let answer = try store.statistics(
                        of: name, from: Date(milliseconds: from), to: Date(milliseconds: to),
                        interval: interval, anchor: anchor.map(Date.init(milliseconds:)),
                        options: asked)
                    let expected = reference.statistics(
                        samples: samples, discrete: kind == .discrete, from: from, to: to,
                        interval: interval, anchor: anchor)
                    #expect(answer.kind == kind)
                    Self.compare(answer.buckets, expected, "\(name) \(context)")
                }
            }
        }
    }

    static func compare(
        _ buckets: [StatisticsBucket], _ expected: [ReferenceBucket], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            buckets.map { [$0.start.millisecondsSince1970, $0.end.millisecondsSince1970] }
                == expected.map { [$0.start, $0.end] }, "\(context): bucket bounds",
            sourceLocation: sourceLocation)
        guard buckets.count == expected.count else { return }
        for (bucket, reference) in zip(buckets, expected) {
            let where_ = "\(context) bucket \(reference.start)"
            guard reference.hasData || reference.count > 0 else {
                #expect(
                    bucket.sum == nil && bucket.count == nil && bucket.average == nil
                        && bucket.mostRecent == nil, "\(where_): an empty bucket has no figures",
                    sourceLocation: sourceLocation)
                continue
            }
            #expect(
                bucket.count == reference.count, "\(where_): count", sourceLocation: sourceLocation)
            let sum = bucket.sum ?? .nan
            #expect(
                approximatelyEqual(sum, reference.sum, scale: reference.magnitude),
                "\(where_): sum \(sum) vs \(reference.sum)", sourceLocation: sourceLocation)
            if let minimum = reference.minimum {
                #expect(
                    bucket.minimum == minimum, "\(where_): minimum", sourceLocation: sourceLocation)
                #expect(
                    bucket.maximum == reference.maximum, "\(where_): maximum",
                    sourceLocation: sourceLocation)
                #expect(
                    bucket.mostRecent == reference.latest, "\(where_): most recent",
                    sourceLocation: sourceLocation)
                let average = bucket.average ?? .nan
                #expect(
                    approximatelyEqual(
                        average, reference.sum / Double(reference.count),
                        scale: reference.magnitude / Double(reference.count)),
                    "\(where_): average", sourceLocation: sourceLocation)
            }
        }
    }
}
