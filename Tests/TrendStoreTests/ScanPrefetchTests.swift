import Foundation
import Testing
import TestSupport
import TrendStore

/// A scan of all time from raw samples decodes its blocks ahead on several threads: its
/// answers are the bits of the same days read block by block.
@Suite("Blocks decoded ahead")
struct ScanPrefetchTests {
    @Test(
        "all seven weekday averages over all time from raw samples equal each weekday asked alone, plain and encrypted",
        arguments: [
            ("Asia/Kathmandu", false, false), ("America/Los_Angeles", true, false),
            ("Asia/Kathmandu", false, true),
        ])
    func allSevenMatchEachAlone(zone: String, fromRawSamples: Bool, encrypted: Bool)
        async throws
    {
        try await withTemporaryDirectory { directory in
            var options = StoreOptions()
            options.durability = .none
            options.timeZone = TimeZone(identifier: "America/Los_Angeles")!
            #if Encryption
                // An encrypted store's blocks are opened values: decoding ahead copies them out.
                if encrypted { options.encryptionKey = .random() }
            #endif
            let store = try TrendStore(directory: directory.url, options: options)
            // 180,000 minute samples (about 125 days, with gaps): more than the decoded-block
            // cache holds, so the scan decodes ahead several times and the cache evicts.
            var generator = SampleGenerator(seed: 35)
            let samples = generator.minuteSamples(from: 1_760_000_000_000, count: 180_000)
            try await store.write(samples, to: "energy", unit: "kcal")
            let now = Date(milliseconds: samples[samples.count - 1].endMilliseconds + 86_400_000)
            let asked = WeekdayAverageOptions(window: .allTime, fromRawSamples: fromRawSamples)
            let timeZone = TimeZone(identifier: zone)!
            // Each weekday alone reads its days' blocks one by one (its days are not consecutive);
            // all seven at once then decode theirs ahead.
            let alone = try Weekday.allCases.map {
                try store.weekdayAverage(
                    of: "energy", weekday: $0, now: now, options: asked, timeZone: timeZone)
            }
            let all = try store.weekdayAverages(
                of: "energy", now: now, options: asked, timeZone: timeZone)
            #expect(alone.allSatisfy { $0.days.count >= 16 && $0.averageHourlyPattern != nil })
            #expect(all == alone)
        }
    }
}
