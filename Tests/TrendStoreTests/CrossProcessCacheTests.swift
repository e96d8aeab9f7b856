import Foundation
import Testing
import TestSupport
@testable import TrendStore

@Suite("Caches across processes")
struct CrossProcessCacheTests {
    @Test("a cache refreshed by another process is read by this one")
    func sharedCache() async throws {
        try await withTemporaryDirectory { directory in
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "America/Los_Angeles")
            let store = try TrendStore(directory: directory.url, options: options)
            var generator = SampleGenerator(seed: 8)
            try await store.write(
                generator.minuteSamples(from: 1_779_000_000_000, count: 20_000), to: "energy",
                unit: "kcal")
            #expect(try store.cachedWeekdayAverage(of: "energy", weekday: .tuesday) == nil)

            let result = try CommandLineTool.run([
                "cache", "refresh", "--series", "energy", "--store", directory.url.path, "--now",
                "2026-05-20T12:00:00-07:00",
            ])
            #expect(result.status == 0, "\(result.output)")
            let cached = try #require(
                try store.cachedWeekdayAverage(of: "energy", weekday: .tuesday))
            #expect(
                cached.value
                    == (try store.weekdayAverage(
                        of: "energy", weekday: .tuesday, now: Timestamp("2026-05-20T19:00:00Z"))))
            #expect(cached.computedAt == Timestamp("2026-05-20T19:00:00Z"))
        }
    }

    @Test("a heatmap bucket another process computed is invalidated by this one's writes")
    func heatmapOfAnotherProcess() async throws {
        try await withTemporaryDirectory { directory in
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "UTC")
            let store = try TrendStore(directory: directory.url, options: options)
            // A run a day from 2026-02-24.
            func run(_ day: Int64) -> Sample {
                let start = 1_771_900_000_000 + day * 86_400_000
                return Sample(
                    startMilliseconds: start, endMilliseconds: start + 3_000_000, value: 5000)
            }
            // A ride long before the heatmap's dates, then two runs in them: the second write
            // finds the buckets (none) from what the first left.
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "Ride",
                unit: "m")
            try await store.write([run(0)], to: "Run", unit: "m")
            try await store.write([run(1)], to: "Run", unit: "m")
            let peer = try PeerProcess(store: directory.url)
            defer { peer.quit() }
            #expect(try peer.send("heatmap Run,Ride 2026-02-20 2026-02-28") == "2")
            #expect(try store.cachedHeatmap(of: ["Ride", "Run"]) != nil)
            try await store.write([run(2)], to: "Run", unit: "m")
            #expect(try store.cachedHeatmap(of: ["Ride", "Run"]) == nil)
        }
    }

    @Test(
        "killing a process during migration leaves the old state or the new one", arguments: 0..<4)
    func killDuringMigration(trial: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Many v1 keys, written without running the migration, so migrating takes a while.
        do {
            let store = try TrendStore(directory: directory.url)
            try store.engine.write { txn, _ in
                let meta = Array("migrations".utf8)
                try txn.delete(forKey: meta, in: store.engine.tables.meta.database)
                for index in 0..<3_000 {
                    let payload = V1Average(
                        pattern: Array(repeating: Double(index), count: 24), projectedTotal: 1
                    ).payload(computedAt: 0)
                    try store.engine.caches.putPayload(
                        payload, forKey: SchemaKey.v1Average("series-\(index)"), in: txn)
                }
            }
        }
        // The child opens the store read-write, which runs the missing migration, and is killed at some moment.
        _ = try await CommandLineTool.killed(
            ["cache", "refresh", "--series", "series-0", "--store", directory.url.path],
            after: .milliseconds(30 + 60 * trial))

        let reopened = try TrendStore(
            directory: directory.url,
            options: {
                var o = StoreOptions(); o.readOnly = true; return o
            }())
        let keys = try reopened.cacheEntries().map(\.key)
        let v1Keys = keys.filter { $0.hasPrefix("v1/") }.count
        let migrated = try reopened.appliedMigrations().contains(
            "0001-v1-average-to-v2-weekday-averages")
        #expect(
            migrated ? v1Keys == 0 : v1Keys == 3_000,
            "migrated: \(migrated), v1 keys left: \(v1Keys)")
        print(
            "kill trial \(trial): the migration had \(migrated ? "committed" : "not committed") when the child was killed"
        )
        #expect(try await reopened.verify().isHealthy)
        // Opening read-write finishes the job (after closing the read-only handle: one
        // process shares one environment per store, and a read-only one cannot write).
        await reopened.close()
        let finished = try TrendStore(directory: directory.url)
        #expect(try finished.cacheEntries().filter { $0.key.hasPrefix("v1/") }.isEmpty)
        #expect(
            try finished.cachedWeekdayAverage(of: "series-7", weekday: .sunday)?.value
                .projectedTotal == 1
        )
    }
}

/// An instant from ISO-8601 text, for test readability.
func Timestamp(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
