import Foundation
import Testing
import TestSupport
@testable import TrendStore

@Suite("Rollups kept in step with samples")
struct RollupTests {
    @Test(
        "rows updated in place by samples arriving one by one equal rows built from one batch, bit for bit",
        arguments: 0..<4)
    func inPlaceUpdatesEqualRebuilds(seed: Int) async throws {
        var generator = SampleGenerator(seed: seed)
        let dayStart: Int64 = 1_763_683_200_000  // a UTC midnight
        // Decimals of up to four places, each wholly inside one quarter-hour (instants and
        // short spans), in random order, with a few long spans that cross slots and days.
        // The long spans come first, so the contained samples after them update rows in place.
        var samples = (0..<5).map { index in
            let start = dayStart + Int64(index) * 30_000_000 + 123
            return Sample(
                startMilliseconds: start, endMilliseconds: start + 5_000_000, value: 1.5)
        }
        samples += (0..<400).map { _ -> Sample in
            let start = dayStart + generator.integer(in: 0...(2 * 86_400_000 - 1))
            let slotEnd = (start / 900_000 + 1) * 900_000
            return Sample(
                startMilliseconds: start,
                endMilliseconds: min(slotEnd, start + generator.integer(in: 0...120_000)),
                value: Double(generator.integer(in: -50_000...50_000)) / 10_000)
        }
        try await withTemporaryStore(options: .quarterHourGrid) { streamed, _ in
            try await withTemporaryStore(options: .quarterHourGrid) { batched, _ in
                for sample in samples {
                    try await streamed.write([sample], to: "e", unit: "kcal")
                    try await streamed.write([sample], to: "hr", unit: "count/min", kind: .discrete)
                }
                try await batched.write(samples, to: "e", unit: "kcal")
                try await batched.write(samples, to: "hr", unit: "count/min", kind: .discrete)
                #expect(try await streamed.verify().isHealthy)
                for day in (dayStart / 86_400_000 - 1)...(dayStart / 86_400_000 + 2) {
                    // A discrete row (minimum, maximum, latest sample) is the same bytes either way.
                    let lhs = try storedRowBytes(streamed, series: "hr", day: day)
                    #expect(lhs == (try storedRowBytes(batched, series: "hr", day: day)))
                    #expect(lhs.map { $0.withUnsafeBytes(RollupRowCodec.isDiscrete) } ?? true)
                }
                for day in (dayStart / 86_400_000 - 1)...(dayStart / 86_400_000 + 2) {
                    let lhs = try storedRollup(streamed, series: "e", day: day)
                    let rhs = try storedRollup(batched, series: "e", day: day)
                    #expect(lhs?.map(\.prorated.bitPattern) == rhs?.map(\.prorated.bitPattern))
                    #expect(lhs?.map(\.startSum.bitPattern) == rhs?.map(\.startSum.bitPattern))
                    #expect(lhs?.map(\.count) == rhs?.map(\.count))
                }
            }
        }
    }

    @Test(
        "rollups equal a brute-force recomputation after inserts, replacements and deletes",
        arguments: 0..<12)
    func rollupsMatchReference(seed: Int) async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, _ in
            var generator = SampleGenerator(seed: seed)
            let base: Int64 =
                1_710_000_000_000 + generator.integer(in: -86_400_000 * 400...86_400_000 * 400)
            var model: [Pair: Double] = [:]
            for _ in 0..<4 {
                let batch = generator.awkwardSamples(in: base..<(base + 5 * 86_400_000), count: 300)
                try await store.write(batch, to: "energy", unit: "kcal")
                for sample in batch { model[Pair(sample)] = sample.value }
            }
            // Replace the values of a third of the stored samples.
            let replacements = model.keys.sorted().enumerated().filter { $0.offset % 3 == 0 }.map {
                index, pair in
                Sample(
                    startMilliseconds: pair.start, endMilliseconds: pair.end,
                    value: Double(index) / 8)
            }
            try await store.write(replacements, to: "energy", unit: "kcal")
            for sample in replacements { model[Pair(sample)] = sample.value }
            // Delete a day and a half in the middle.
            let deleteFrom = base + 86_400_000 + generator.integer(in: 0...86_400_000)
            let deleteTo = deleteFrom + 129_600_000
            let removed = try await store.deleteSamples(
                of: "energy", from: Date(milliseconds: deleteFrom), to: Date(milliseconds: deleteTo)
            )
            let before = model.count
            model = model.filter { $0.key.start < deleteFrom || $0.key.start >= deleteTo }
            #expect(removed == before - model.count)

            let expected = model.map {
                Sample(
                    startMilliseconds: $0.key.start, endMilliseconds: $0.key.end, value: $0.value)
            }
            .sorted {
                ($0.startMilliseconds, $0.endMilliseconds) < (
                    $1.startMilliseconds, $1.endMilliseconds
                )
            }
            #expect(
                try store.samples(of: "energy", from: .distantPast, to: .distantFuture) == expected)

            let days = RollupReference.days(of: expected)
            for day in (days.min()! - 2)...(days.max()! + 2) {
                let stored = try storedRollup(store, series: "energy", day: day)
                guard days.contains(day) else {
                    #expect(stored == nil, "day \(day) has no samples but has a rollup")
                    continue
                }
                let reference = RollupReference.slots(day: day, samples: expected)
                let slots = try #require(stored, "day \(day) has samples but no rollup")
                for slot in 0..<96 {
                    let want = reference[slot]
                    let got = slots[slot]
                    #expect(got.count == want.count, "day \(day) slot \(slot)")
                    #expect(
                        close(got.prorated, want.prorated, scale: want.magnitude),
                        "day \(day) slot \(slot): \(got.prorated) vs \(want.prorated)")
                    #expect(
                        close(got.startSum, want.startSum, scale: want.magnitude),
                        "day \(day) slot \(slot)")
                }
            }
            let report = try await store.verify()
            #expect(report.isHealthy, "\(report.problems)")
            #expect(report.samplesChecked == expected.count)
        }
    }

    @Test("a sample from 13:57 to 14:02 UTC splits 3:2 between the two quarter-hours around 14:00")
    func handWorkedSplit() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, _ in
            let day: Int64 = 20_000
            let start = day * 86_400_000 + 13 * 3_600_000 + 57 * 60_000
            try await store.write(
                [Sample(startMilliseconds: start, endMilliseconds: start + 300_000, value: 5)],
                to: "e", unit: "kcal")
            let slots = try #require(try storedRollup(store, series: "e", day: day))
            #expect(slots[55].prorated == 3)  // 13:45–14:00
            #expect(slots[56].prorated == 2)  // 14:00–14:15
            #expect(slots[55].count == 1 && slots[55].startSum == 5)
            #expect(slots[56].count == 0)
        }
    }

    @Test("a sample straddling UTC midnight feeds both days' rollups")
    func straddlesMidnight() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, _ in
            let midnight: Int64 = 20_001 * 86_400_000
            try await store.write(
                [
                    Sample(
                        startMilliseconds: midnight - 600_000,
                        endMilliseconds: midnight + 1_200_000, value: 9)
                ], to: "e", unit: "kcal")
            #expect(try storedRollup(store, series: "e", day: 20_000)?[95].prorated == 3)
            let after = try #require(try storedRollup(store, series: "e", day: 20_001))
            #expect(after[0].prorated == 4.5)  // 00:00–00:15: 15 of 30 minutes
            #expect(after[1].prorated == 1.5)  // 00:15–00:20: 5 of 30 minutes
            #expect(after[0].count == 0)
        }
    }
}

/// A sample's identity, for the test's model of what the store should hold.
private struct Pair: Hashable, Comparable {
    let start: Int64
    let end: Int64
    init(_ sample: Sample) { start = sample.startMilliseconds; end = sample.endMilliseconds }
    init(start: Int64, end: Int64) { self.start = start; self.end = end }
    static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }
}
