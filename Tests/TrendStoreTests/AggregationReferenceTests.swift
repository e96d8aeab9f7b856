import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// A zone and a date just before one of its offset changes.
struct ZoneCase: CustomTestStringConvertible, Sendable {
    let identifier: String
    let year: Int
    let month: Int
    var testDescription: String { "\(identifier) \(year)-\(month)" }

    var zone: TimeZone { TimeZone(identifier: identifier)! }

    /// The first offset change on or after the first of the month (or the 15th if none within a year).
    var transition: Int64 {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let anchor = utc.date(from: DateComponents(year: year, month: month, day: 1))!
        if let next = zone.nextDaylightSavingTimeTransition(after: anchor),
            next < anchor.addingTimeInterval(366 * 86_400)
        {
            return next.millisecondsSince1970
        }
        return anchor.millisecondsSince1970 + 14 * 86_400_000
    }

    static let all: [ZoneCase] = [
        ZoneCase(identifier: "America/Los_Angeles", year: 2026, month: 3),
        ZoneCase(identifier: "America/Los_Angeles", year: 2026, month: 11),
        ZoneCase(identifier: "Asia/Kolkata", year: 2026, month: 5),
        ZoneCase(identifier: "Asia/Kathmandu", year: 1985, month: 12),
        ZoneCase(identifier: "America/St_Johns", year: 2026, month: 11),
        ZoneCase(identifier: "Pacific/Chatham", year: 2026, month: 4),
        ZoneCase(identifier: "Australia/Lord_Howe", year: 2026, month: 4),
        ZoneCase(identifier: "Australia/Lord_Howe", year: 2026, month: 10),
        ZoneCase(identifier: "America/Santiago", year: 2026, month: 4),
        ZoneCase(identifier: "America/Santiago", year: 2026, month: 9),
        ZoneCase(identifier: "America/Havana", year: 2026, month: 3),
        ZoneCase(identifier: "America/Havana", year: 2026, month: 11),
        ZoneCase(identifier: "Pacific/Apia", year: 2011, month: 12),
        ZoneCase(identifier: "Africa/Monrovia", year: 1972, month: 1),
    ]
}

/// Non-negative samples around `center`: awkward ones over ±`days`, minute data over ±1 day.
func samplesAround(_ center: Int64, days: Int64, seed: Int, awkward: Int = 800) -> [Sample] {
    var generator = SampleGenerator(seed: seed)
    let awkwardSamples = generator.awkwardSamples(
        in: (center - days * 86_400_000)..<(center + days * 86_400_000), count: awkward
    )
    .map {
        Sample(
            startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds,
            value: abs($0.value))
    }
    let minutes = generator.minuteSamples(
        from: center - 86_400_000 + generator.integer(in: 0...59_999), count: 2_600)
    return try! SampleBatch(series: "x", samples: awkwardSamples + minutes).samples
}

func expectClose(
    _ actual: [Double], _ expected: [Double], _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (hour, (a, e)) in zip(actual, expected).enumerated()
    where !approximatelyEqual(a, e, scale: 1e-3) {
        Issue.record(
            "\(context) hour \(hour): \(a) vs reference \(e)", sourceLocation: sourceLocation)
        return
    }
}

@Suite("Aggregates equal the reference in awkward zones")
struct AggregationReferenceTests {
    @Test(
        "day curves, today's curve and heatmaps around an offset change, on either rollup grid",
        arguments: ZoneCase.all, RollupGrid.allCases)
    func curvesAndHeatmaps(zoneCase: ZoneCase, grid: RollupGrid) async throws {
        var options = StoreOptions()
        options.timeZone = zoneCase.zone
        options.rollupGrid = grid
        try await withTemporaryStore(options: options) { store, _ in
            let center = zoneCase.transition
            let samples = samplesAround(center, days: 5, seed: center.hashValue & 0xFFFF)
            var split = SampleGenerator(seed: 99)
            let (a, b) = samples.reduce(into: ([Sample](), [Sample]())) { parts, sample in
                if split.integer(in: 0...1) == 0 {
                    parts.0.append(sample)
                } else {
                    parts.1.append(sample)
                }
            }
            try await store.write([
                SeriesSamples(series: "A", unit: "m", samples: a),
                SeriesSamples(series: "B", unit: "m", samples: b),
            ])
            let reference = ReferenceAggregator(
                zone: zoneCase.zone, from: LocalDate(dayNumber: center / 86_400_000 - 7),
                through: LocalDate(dayNumber: center / 86_400_000 + 7))
            let centerDate = reference.date(of: center)

            for offset in -4...4 {
                let date = centerDate.adding(days: offset)
                let curve = try store.dayCurve(of: "A", on: date)
                let expected = reference.figures(of: date, samples: a)
                var running = 0.0
                expectClose(
                    curve.cumulative,
                    expected.hourly.map {
                        running += $0; return running
                    }, "\(zoneCase.identifier) \(date)")
            }

            let heatmap = try store.heatmap(
                of: ["B", "A"], from: centerDate.adding(days: -4),
                through: centerDate.adding(days: 4))
            #expect(heatmap.bucket == "A,B")
            #expect(heatmap.days.map(\.date) == (-4...4).map { centerDate.adding(days: $0) })
            for day in heatmap.days {
                let expectedA = reference.figures(of: day.date, samples: a)
                let expectedB = reference.figures(of: day.date, samples: b)
                #expect(day.bySeries["A"]?.count == expectedA.count, "\(day.date)")
                #expect(day.count == expectedA.count + expectedB.count, "\(day.date)")
                #expect(
                    approximatelyEqual(day.total, expectedA.total + expectedB.total),
                    "\(day.date): \(day.total)")
            }

            var random = SampleGenerator(seed: 5)
            for _ in 0..<30 {
                let now = center + random.integer(in: -3 * 86_400_000...3 * 86_400_000)
                let today = try store.todayCurve(of: "A", now: Date(milliseconds: now))
                let date = reference.date(of: now)
                #expect(today.date == date)
                let expected = reference.figures(of: date, samples: a, now: now)
                var running = 0.0
                expectClose(
                    today.cumulative,
                    expected.hourly.map {
                        running += $0; return running
                    }, "\(zoneCase.identifier) today at \(now)")
                #expect(
                    today.latestSampleTimestamp.map(\.millisecondsSince1970)
                        == reference.latestSampleTimestamp(samples: a, now: now))
            }
        }
    }

    @Test(
        "weekday averages over the 70 days before today, on either rollup grid",
        arguments: ZoneCase.all, RollupGrid.allCases)
    func weekdayAverages(zoneCase: ZoneCase, grid: RollupGrid) async throws {
        var options = StoreOptions()
        options.timeZone = zoneCase.zone
        options.rollupGrid = grid
        try await withTemporaryStore(options: options) { store, _ in
            let center = zoneCase.transition
            let start = center - 72 * 86_400_000
            var generator = SampleGenerator(seed: Int(center % 10_000))
            let samples = generator.awkwardSamples(in: start..<(center + 86_400_000), count: 1_500)
                .map {
                    Sample(
                        startMilliseconds: $0.startMilliseconds,
                        endMilliseconds: $0.endMilliseconds, value: abs($0.value))
                }
            try await store.write(samples, to: "energy", unit: "kcal")
            let reference = ReferenceAggregator(
                zone: zoneCase.zone, from: LocalDate(dayNumber: start / 86_400_000 - 1),
                through: LocalDate(dayNumber: center / 86_400_000 + 2))
            let stored = try store.samples(of: "energy", from: .distantPast, to: .distantFuture)
            let now = center + generator.integer(in: -43_200_000...43_200_000)
            let all = try store.weekdayAverages(of: "energy", now: Date(milliseconds: now))
            #expect(all.map(\.weekday) == Weekday.allCases)
            for weekday in Weekday.allCases {
                let average = try store.weekdayAverage(
                    of: "energy", weekday: weekday, now: Date(milliseconds: now))
                #expect(average == all[weekday.rawValue - 1])
                let expected = reference.weekdayAverage(
                    samples: stored, weekday: weekday.rawValue, now: now)
                #expect(average.days == expected.days, "\(zoneCase.identifier) weekday \(weekday)")
                #expect(average.days.allSatisfy { Weekday(of: $0) == weekday })
                if let pattern = expected.pattern {
                    expectClose(
                        try #require(average.averageHourlyPattern), pattern,
                        "\(zoneCase.identifier) weekday \(weekday)")
                    #expect(approximatelyEqual(try #require(average.projectedTotal), pattern[23]))
                } else {
                    #expect(average.averageHourlyPattern == nil && average.projectedTotal == nil)
                }
                let fromRaw = try store.weekdayAverage(
                    of: "energy", weekday: weekday, now: Date(milliseconds: now),
                    options: .init(fromRawSamples: true))
                #expect(fromRaw.days == average.days)
                if let rawPattern = fromRaw.averageHourlyPattern {
                    expectClose(
                        rawPattern, try #require(average.averageHourlyPattern),
                        "raw samples vs rollups")
                }
                let withEmpty = try store.weekdayAverage(
                    of: "energy", weekday: weekday, now: Date(milliseconds: now),
                    options: .init(includeEmptyDays: true))
                let expectedWithEmpty = reference.weekdayAverage(
                    samples: stored, weekday: weekday.rawValue, now: now, includeEmpty: true)
                #expect(withEmpty.dayCount == 10)
                #expect(withEmpty.days == expectedWithEmpty.days)
                expectClose(
                    try #require(withEmpty.averageHourlyPattern),
                    try #require(expectedWithEmpty.pattern), "with empty days")
            }
        }
    }
}
