import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// Stores of the hour grid in zones a half or a quarter of an hour off UTC, and verify's
/// checks of their summaries.
extension RollupGridTests {
    @Test(
        "a store created in India or Nepal reads its local hours from summaries: its answers stay when the samples are gone",
        arguments: ["Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham"])
    func phasedSummariesAnswer(identifier: String) async throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var generator = SampleGenerator(seed: 41)
        let start: Int64 = 1_760_000_000_000
        let energy = try SampleBatch(
            series: "energy",
            samples: generator.minuteSamples(from: start, count: 30_000)
                + generator.awkwardSamples(in: start..<(start + 20 * TimeGrid.day), count: 200)
                .map {
                    Sample(
                        startMilliseconds: $0.startMilliseconds,
                        endMilliseconds: $0.endMilliseconds, value: abs($0.value))
                }
        ).samples
        let pulse = (0..<4_000).map { index -> Sample in
            let at = start + Int64(index) * 397_000
            return Sample(
                startMilliseconds: at, endMilliseconds: at, value: Double(60 + index % 50))
        }
        for phased in [true, false] {
            var options = StoreOptions()
            options.timeZone = phased ? zone : TimeZone(identifier: "UTC")
            options.rollupGrid = .hour
            try await withTemporaryStore(options: options) { store, _ in
                #expect((store.hourSummaryMinute != 0) == phased)
                try await store.write([
                    SeriesSamples(series: "energy", unit: "kcal", samples: energy),
                    SeriesSamples(
                        series: "pulse", unit: "count/min", kind: .discrete, samples: pulse),
                ])
                let now = Date(milliseconds: start + 25 * TimeGrid.day)
                let from = Date(milliseconds: start + 2 * TimeGrid.day)
                let to = Date(milliseconds: start + 12 * TimeGrid.day)
                func answers() throws -> [[Double]] {
                    var figures = try store.weekdayAverages(of: "energy", now: now, timeZone: zone)
                        .map { $0.averageHourlyPattern ?? [] }
                    figures.append(
                        try store.dayCurve(
                            of: "energy", on: LocalDate(dayNumber: start / TimeGrid.day + 3),
                            timeZone: zone
                        ).hourly)
                    let options: [String: StatisticsOptions] = [
                        "energy": [.sum], "pulse": [.average, .minimum, .maximum, .mostRecent],
                    ]
                    for (series, wanted) in options.sorted(by: { $0.key < $1.key }) {
                        let daily = try store.statistics(
                            of: series, from: from, to: to, interval: .days(1), timeZone: zone,
                            options: wanted)
                        for bucket in daily.buckets {
                            let latest: Double = bucket.mostRecent?.value ?? -1
                            let sum: Double = bucket.sum ?? -1
                            let average: Double = bucket.average ?? -1
                            let extremes: [Double] = [bucket.minimum ?? -1, bucket.maximum ?? -1]
                            figures.append([sum, average, latest] + extremes)
                        }
                    }
                    return figures
                }
                let before = try answers()
                #expect(before.joined().contains { $0 > 0 })
                try store.engine.write { txn, _ in
                    try txn.removeAll(in: store.engine.storage.blocks.database)
                }
                let after = try answers()
                if phased {
                    #expect(after == before, "\(identifier)")
                } else {
                    #expect(after != before, "\(identifier): UTC hours cannot answer local hours")
                }
            }
        }
    }

    @Test("verify reports a changed summary and a kept row that differs from its samples")
    func verifyFindsDamage() async throws {
        try await withTemporaryStore(options: Self.hourGrid) { store, _ in
            var generator = SampleGenerator(seed: 23)
            try await store.write(
                generator.minuteSamples(from: 1_700_000_000_000, count: 3_000), to: "energy",
                unit: "kcal")
            let engine = store.engine
            let day: Int64 = try engine.write { txn, _ in
                let hours = engine.storage.hours.database
                let (key, value) = try #require(
                    try txn.withCursor(hours) {
                        try $0.first().map { (Array($0.key), Array($0.value)) }
                    })
                var changed = value
                // A byte of the first segment's first sum (after its offset, bitmap and count).
                changed[12] ^= 0x01
                try txn.put(changed, forKey: key, in: hours)
                let record = try engine.storage.requireSeries(named: "energy", in: txn)
                let day = 1_700_000_000_000 / TimeGrid.day
                try txn.put(
                    [1, 2, 3], forKey: StorageKey.dayRowKey(series: record.id, day: day),
                    in: engine.storage.days.database)
                return day
            }
            let problems = try await store.verify().problems
            #expect(problems.contains { $0.kind == .rollupMismatch || $0.kind == .damagedRollup })
            #expect(
                problems.contains {
                    $0.kind == .rollupMismatch && $0.at.millisecondsSince1970 == day * TimeGrid.day
                })
        }
    }
}
