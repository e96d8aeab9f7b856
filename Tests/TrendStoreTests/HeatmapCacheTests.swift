import Foundation
import Testing
import TestSupport
import TrendStore

@Suite("Heatmap bucket caches")
struct HeatmapCacheTests {
    private func withStore(_ body: (TrendStore, ManualClock) async throws -> Void) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_772_000_000))
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        options.clock = clock.reading
        try await withTemporaryStore(options: options) { (store, _) async throws in
            try await body(store, clock)
        }
    }

    private func day(_ text: String, _ count: Int) -> HeatmapDay {
        HeatmapDay(
            date: LocalDate(text)!, series: ["Run"],
            seriesFigures: [DayCount(count: count, total: Double(count) * 5000)])
    }

    @Test("a write keeps other buckets; a read finds the bucket whatever the order of the series")
    func readWrite() async throws {
        try await withStore { store, clock in
            try await store.writeHeatmapCache(
                HeatmapBucket(heatmapDays: [day("2026-02-27", 1)]), of: ["Run"])
            let raw = Data(#"[{"id":1}]"#.utf8)
            try await store.writeHeatmapCache(
                HeatmapBucket(heatmapDays: [day("2026-02-27", 2)], activities: raw),
                of: ["Run", "Ride"])
            #expect(
                try store.cachedHeatmap(of: ["Run"])?.value.heatmapDays.first?.count == 1)
            let both = try #require(try store.cachedHeatmap(of: ["Ride", "Run"]))
            #expect(both.value.heatmapDays.first?.count == 2 && both.value.activities == raw)
            #expect(
                SchemaKey.heatmap(["Run", "Ride"], zone: TimeZone(identifier: "Asia/Tokyo")!)
                    == "v2/heatmap/Ride,Run/Asia%2FTokyo")
            clock.set(clock.now.addingTimeInterval(1800))
            #expect(both.isFresh(maxAge: 1800, now: clock.now))
            #expect(!both.isFresh(maxAge: 1799, now: clock.now))
            #expect(try await store.clearCache(.all) == 2)
            #expect(try store.cachedHeatmap(of: ["Run"]) == nil)
        }
    }

    @Test(
        "a computed bucket is served while fresh and invalidated by writes of its series in its dates"
    )
    func refreshed() async throws {
        try await withStore { store, clock in
            let run = Sample(
                start: Date(timeIntervalSince1970: 1_771_900_000),
                end: Date(timeIntervalSince1970: 1_771_903_000), value: 5000)
            try await store.write([run], to: "Run", unit: "m")
            // A ride long before the heatmap's dates: the series exists, its days are empty.
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "Ride",
                unit: "m")
            let from = LocalDate("2026-02-20")!
            let through = LocalDate("2026-02-28")!
            let first = try await store.refreshedHeatmap(
                of: ["Run", "Ride"], from: from, through: through, maxAge: 3600)
            #expect(first.value.days.reduce(0) { $0 + $1.count } == 1)
            clock.set(clock.now.addingTimeInterval(60))
            #expect(
                try await store.refreshedHeatmap(
                    of: ["Ride", "Run"], from: from, through: through, maxAge: 3600
                ).computedAt == first.computedAt)
            // Another series' write leaves the bucket; a Ride in its dates removes it.
            try await store.write([run], to: "Swim", unit: "m")
            #expect(try store.cachedHeatmap(of: ["Run", "Ride"]) != nil)
            try await store.write([run], to: "Ride", unit: "m")
            #expect(try store.cachedHeatmap(of: ["Run", "Ride"]) == nil)
            let second = try await store.refreshedHeatmap(
                of: ["Run", "Ride"], from: from, through: through, maxAge: 3600)
            #expect(
                second.value.days.reduce(0) { $0 + $1.count } == 2 && second.computedAt == clock.now
            )
        }
    }

    @Test(
        "a series whose name holds a comma has a bucket of its own, which its writes invalidate"
    )
    func namesWithCommas() async throws {
        try await withStore { store, clock in
            let run = Sample(
                start: Date(timeIntervalSince1970: 1_771_900_000),
                end: Date(timeIntervalSince1970: 1_771_903_000), value: 5000)
            for name in ["Ride", "Run", "Ride,Run", "Ride%2CRun"] {
                try await store.write([run], to: name, unit: "m")
            }
            try await store.write([run, run.shifted(by: 86_400_000)], to: "Ride,Run", unit: "m")
            let from = LocalDate("2026-02-20")!
            let through = LocalDate("2026-02-28")!
            let pair = try await store.refreshedHeatmap(
                of: ["Ride", "Run"], from: from, through: through, maxAge: 3600)
            let joined = try await store.refreshedHeatmap(
                of: ["Ride,Run"], from: from, through: through, maxAge: 3600)
            let escaped = try await store.refreshedHeatmap(
                of: ["Ride%2CRun"], from: from, through: through, maxAge: 3600)
            #expect(pair.value.days.reduce(0) { $0 + $1.count } == 2)
            #expect(joined.value.days.reduce(0) { $0 + $1.count } == 2)
            #expect(escaped.value.days.reduce(0) { $0 + $1.count } == 1)
            #expect(Set([pair.value.bucket, joined.value.bucket, escaped.value.bucket]).count == 3)
            // Served from the cache: each its own bucket, not the pair's.
            clock.set(clock.now.addingTimeInterval(60))
            let cachedJoined = try #require(try store.cachedHeatmap(of: ["Ride,Run"]))
            #expect(cachedJoined.value.heatmapDays.reduce(0) { $0 + $1.count } == 2)
            // A write of `Ride,Run` in the dates invalidates its bucket, not the pair's.
            try await store.write(
                [run.shifted(by: 2 * 86_400_000)], to: "Ride,Run", unit: "m")
            #expect(try store.cachedHeatmap(of: ["Ride,Run"]) == nil)
            #expect(try store.cachedHeatmap(of: ["Ride", "Run"]) != nil)
            #expect(try store.cachedHeatmap(of: ["Ride%2CRun"]) != nil)
            let again = try await store.refreshedHeatmap(
                of: ["Ride,Run"], from: from, through: through, maxAge: 3600)
            #expect(again.value.days.reduce(0) { $0 + $1.count } == 3)
        }
    }
}

extension Sample {
    /// The sample moved by `milliseconds`.
    fileprivate func shifted(by milliseconds: Int64) -> Sample {
        Sample(
            startMilliseconds: startMilliseconds + milliseconds,
            endMilliseconds: endMilliseconds + milliseconds, value: value)
    }
}
