import Foundation
import Testing

@testable import TrendStore

/// The registry of cached kinds is what keys are parsed against and payloads accepted by:
/// each kind is told apart by its byte and its name, its keys read back as they were made,
/// and its figures come back from a stored payload only as that kind.
@Suite("Cached kinds")
struct CachedKindsTests {
    private let zone = TimeZone(identifier: "America/Los_Angeles")!

    @Test("every kind has its own kind byte and key name, none the v1 average's")
    func distinct() {
        let bytes = CachedKinds.all.map { $0.kind.rawValue }
        let names = CachedKinds.all.map { $0.name }
        #expect(Set(bytes).count == CachedKinds.all.count)
        #expect(Set(names).count == CachedKinds.all.count)
        #expect(!bytes.contains(V1Average.kind.rawValue))
        #expect(CachedKinds.knows(V1Average.kind))
        #expect(!CachedKinds.knows(AggregatePayload.Kind(rawValue: 0)))
    }

    @Test("a key of each kind parses back to its kind, subject, zone and variant")
    func keysParseBack() throws {
        let subject = "50% a/b, 🏃"
        for weekday in Weekday.allCases {
            let key = SchemaKey.weekdayAverage(subject, weekday: weekday, zone: zone)
            let parsed = try #require(SchemaKey.parse(key))
            #expect(parsed.figures.kind == WeekdayAverageCache.kind)
            #expect(parsed.subject == subject && parsed.zoneIdentifier == zone.identifier)
            #expect(parsed.variant == String(weekday.rawValue))
        }
        let today = try #require(SchemaKey.parse(SchemaKey.today(subject, zone: zone)))
        #expect(today.figures.kind == TodayCache.kind && today.subject == subject)
        #expect(today.variant == nil)
        let bucket = try #require(
            SchemaKey.parse(SchemaKey.heatmap(["Run", subject], zone: zone)))
        #expect(bucket.figures.kind == HeatmapCache.kind)
        #expect(
            Heatmap.seriesNames(inBucket: bucket.subject).sorted() == ["Run", subject].sorted())
        // A variant the kind does not carry, a missing one, or an unknown name: not a key.
        for key in [
            "v2/today/s/UTC/1", "v2/weekday-average/s/UTC", "v2/weekday-average/s/UTC/8",
            "v2/weekday-averages/s/UTC/1", "v1/average/s", "v2/heatmap/s",
        ] {
            #expect(SchemaKey.parse(key) == nil, "\(key)")
        }
    }

    @Test("a series' prefixes reach its today and weekday keys, not a bucket holding it")
    func seriesPrefixes() {
        let prefixes = SchemaKey.prefixes(of: "e/1")
        #expect(prefixes.contains { SchemaKey.today("e/1", zone: zone).hasPrefix($0) })
        #expect(
            prefixes.contains {
                SchemaKey.weekdayAverage("e/1", weekday: .friday, zone: zone).hasPrefix($0)
            })
        #expect(!prefixes.contains { SchemaKey.heatmap(["e/1"], zone: zone).hasPrefix($0) })
        #expect(!prefixes.contains { SchemaKey.today("e/10", zone: zone).hasPrefix($0) })
    }

    @Test("a stored payload gives its figures back as its own kind and variant only")
    func payloadsRoundTrip() throws {
        let average = WeekdayAverage(
            series: "e", weekday: .tuesday, days: [LocalDate("2026-11-24")!],
            averageHourlyPattern: (1...24).map { Double($0) * 1.5 }, projectedTotal: 36)
        let today = TodaySnapshot(
            curve: DayCurve(
                series: "e", date: LocalDate("2026-11-29")!,
                cumulative: Array(repeating: 2, count: 24),
                latestSampleTimestamp: Date(milliseconds: 1_764_400_000_123)),
            moveGoal: nil)
        let bucket = HeatmapBucket(heatmapDays: [], activities: Data([1, 2, 3]))
        let stored = try [
            try AggregatePayload(
                WeekdayAverageCache.self, average, computedAt: 7, window: 1..<9, migrated: true),
            try AggregatePayload(TodayCache.self, today, computedAt: 8, window: 0..<0),
            try AggregatePayload(
                HeatmapCache.self, bucket, computedAt: 9, window: 0..<0, imported: true),
        ].map { payload in
            try payload.encoded().withUnsafeBytes { try AggregatePayload(bytes: $0) }
        }
        let tuesday = WeekdayAverageCache.variant(.tuesday)
        let readAverage = try #require(
            stored[0].cached(WeekdayAverageCache.self, subject: "e", variant: tuesday))
        #expect(readAverage.value == average && readAverage.isMigrated && !readAverage.isImported)
        #expect(readAverage.computedAt == Date(milliseconds: 7))
        #expect(
            stored[0].cached(
                WeekdayAverageCache.self, subject: "e",
                variant: WeekdayAverageCache.variant(.monday))
                == nil)
        #expect(stored[1].cached(TodayCache.self, subject: "e", variant: nil)?.value == today)
        let readBucket = try #require(
            stored[2].cached(HeatmapCache.self, subject: "", variant: nil))
        #expect(readBucket.value == bucket && readBucket.isImported)
        // Another kind's reader finds nothing, whatever the body would decode to.
        #expect(stored[1].cached(WeekdayAverageCache.self, subject: "e", variant: tuesday) == nil)
        #expect(stored[0].cached(TodayCache.self, subject: "e", variant: nil) == nil)
        #expect(stored[1].cached(HeatmapCache.self, subject: "", variant: nil) == nil)
    }
}
