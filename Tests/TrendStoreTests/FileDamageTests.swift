import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

@Suite("Damage to the data file")
struct FileDamageTests {
    /// Flips one byte of `value` wherever it lies in the data file at `path` (LMDB may
    /// keep stale copies in free pages); returns whether it was found.
    private func flip(_ value: [UInt8], in path: String, at offsetInValue: Int) throws -> Bool {
        var file = try Data(contentsOf: URL(fileURLWithPath: path))
        let needle = Data(value[max(0, offsetInValue - 24)..<min(value.count, offsetInValue + 24)])
        var found = false
        var searchFrom = file.startIndex
        while let range = file.range(of: needle, in: searchFrom..<file.endIndex) {
            file[range.lowerBound + (offsetInValue - max(0, offsetInValue - 24))] ^= 0x20
            found = true
            searchFrom = range.upperBound
        }
        try file.write(to: URL(fileURLWithPath: path))
        return found
    }

    @Test(
        "flipped bytes of a block, a rollup row and a cached payload in a copy are detected; no query returns their numbers"
    )
    func flippedBytes() async throws {
        let original = try TemporaryDirectory()
        let copy = try TemporaryDirectory()
        defer { original.remove(); copy.remove() }
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        let now = Date(milliseconds: 1_780_000_000_000 + 20 * 86_400_000)
        options.clock = { now }
        var generator = SampleGenerator(seed: 12)
        let samples = generator.minuteSamples(from: 1_780_000_000_000, count: 30_000)
        let (chunk, block, payload, damagedDay): ([UInt8], [UInt8], [UInt8], LocalDate)
        do {
            let store = try TrendStore(directory: original.url, options: options)
            try await store.write(samples, to: "energy", unit: "kcal")
            _ = try await store.refreshedWeekdayAverage(of: "energy", weekday: .tuesday)
            (chunk, block, payload, damagedDay) = try store.engine.read { txn in
                let engine = store.engine
                let record = try engine.storage.requireSeries(named: "energy", in: txn)
                let databases = try engine.storage.formatTwoDatabases()
                let blocks = try engine.storage.indices(
                    in: databases.blocks, series: record.id, from: .min, through: .max, txn: txn)
                let days = try engine.storage.rowDays(series: record.id, in: txn)
                return (
                    try txn.value(
                        forKey: StorageKey.make(series: record.id, index: blocks[1]),
                        in: databases.blocks)!,
                    try txn.value(
                        forKey: StorageKey.dayRowKey(series: record.id, day: days[days.count - 3]),
                        in: databases.days)!,
                    try txn.value(
                        forKey: Array(
                            SchemaKey.weekdayAverage(
                                "energy", weekday: .tuesday, zone: TimeZone(identifier: "UTC")!
                            ).utf8),
                        in: engine.caches.aggregates)!,
                    LocalDate(dayNumber: days[days.count - 3])
                )
            }
        }
        let dataFile = copy.url.appendingPathComponent("data.mdb").path
        try FileManager.default.copyItem(
            atPath: original.url.appendingPathComponent("data.mdb").path, toPath: dataFile)
        #expect(try flip(chunk, in: dataFile, at: chunk.count / 2))
        // The row's checksum: unlike its slots, it differs from every other row's.
        #expect(try flip(block, in: dataFile, at: block.count - 2))
        #expect(try flip(payload, in: dataFile, at: payload.count - 20))

        let damaged = try TrendStore(directory: copy.url, options: options)
        let report = try damaged.verify()
        #expect(report.problems.contains { $0.kind == .damagedChunk && $0.series == "energy" })
        #expect(
            report.problems.contains { $0.kind == .rollupMismatch || $0.kind == .damagedRollup })
        #expect(throws: StoreError.self) {
            try damaged.samples(of: "energy", from: .distantPast, to: .distantFuture)
        }
        // The day whose row was hit: its curve throws rather than showing wrong numbers; its neighbours answer as before.
        let curves = (0..<7).map { offset in
            Result {
                try damaged.dayCurve(
                    of: "energy", on: LocalDate(dayNumber: damagedDay.dayNumber - 3 + Int64(offset))
                )
            }
        }
        let healthy = try TrendStore(directory: original.url, options: options)
        for (offset, curve) in curves.enumerated() {
            if case .success(let value) = curve {
                #expect(
                    value
                        == (try healthy.dayCurve(
                            of: "energy",
                            on: LocalDate(dayNumber: damagedDay.dayNumber - 3 + Int64(offset)))))
            }
        }
        #expect(curves.contains { if case .failure = $0 { return true } else { return false } })
        // The damaged payload reads as missing and is rebuilt from the samples the rollups still summarise.
        #expect(try damaged.cachedWeekdayAverage(of: "energy", weekday: .tuesday) == nil)
        #expect(damaged.cacheStatistics.unreadablePayloads >= 1)
    }
}
