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
        "flipped bytes of a block, a rollup row, an hour summary and a cached payload in a copy are detected; no query returns their numbers"
    )
    func flippedBytes() async throws {
        let original = try TemporaryDirectory()
        let copy = try TemporaryDirectory()
        defer { original.remove(); copy.remove() }
        var options = StoreOptions.quarterHourGrid
        options.timeZone = TimeZone(identifier: "UTC")
        let now = Date(milliseconds: 1_780_000_000_000 + 20 * 86_400_000)
        options.clock = { now }
        var generator = SampleGenerator(seed: 12)
        let samples = generator.minuteSamples(from: 1_780_000_000_000, count: 30_000)
        let (chunk, block, payload, damagedDay): ([UInt8], [UInt8], [UInt8], LocalDate)
        let (hourRow, hourSegmentEnd): ([UInt8], Int)
        do {
            let store = try TrendStore(directory: original.url, options: options)
            try await store.write(samples, to: "energy", unit: "kcal")
            _ = try await store.refreshedWeekdayAverage(of: "energy", weekday: .tuesday)
            (chunk, block, payload, damagedDay) = try store.engine.read { txn in
                let engine = store.engine
                let record = try engine.storage.requireSeries(named: "energy", in: txn)
                let blocks = try engine.storage.blockStarts(
                    of: record, startingFrom: .min, through: .max, in: txn)
                let days = try engine.storage.rowDays(series: record.id, in: txn)
                return (
                    try txn.value(
                        forKey: StorageKey.make(series: record.id, index: blocks[1]),
                        in: engine.storage.blocks.database)!,
                    try txn.value(
                        forKey: StorageKey.dayRowKey(series: record.id, day: days[days.count - 3]),
                        in: engine.storage.days.database)!,
                    try txn.value(
                        forKey: Array(
                            SchemaKey.weekdayAverage(
                                "energy", weekday: .tuesday, zone: TimeZone(identifier: "UTC")!
                            ).utf8),
                        in: engine.tables.payloads.database)!,
                    LocalDate(dayNumber: days[days.count - 3])
                )
            }
            // The hour summary row holding the day before, and where that day's segment ends
            // (the damaged row's own day cannot have its summary checked against it).
            (hourRow, hourSegmentEnd) = try store.engine.read { txn in
                let engine = store.engine
                let record = try engine.storage.requireSeries(named: "energy", in: txn)
                let day = damagedDay.dayNumber - 1
                let row = try #require(
                    try txn.value(
                        forKey: StorageKey.make(
                            series: record.id,
                            index: HourSummaryCodec.group(ofDay: day, kind: .cumulative)),
                        in: engine.storage.hours.database))
                let segment = try #require(
                    row.withUnsafeBytes {
                        HourSummaryCodec.segments(of: $0, kind: .cumulative)[
                            UInt8(day.floorModulo(HourSummaryCodec.daysPerRow(.cumulative)))]
                    })
                let start = try #require(
                    (0...(row.count - segment.count)).first {
                        Array(row[$0..<($0 + segment.count)]) == segment
                    })
                return (row, start + segment.count)
            }
        }
        let dataFile = copy.url.appendingPathComponent("data.mdb").path
        try FileManager.default.copyItem(
            atPath: original.url.appendingPathComponent("data.mdb").path, toPath: dataFile)
        #expect(try flip(chunk, in: dataFile, at: chunk.count / 2))
        // The row's checksum: unlike its slots, it differs from every other row's.
        #expect(try flip(block, in: dataFile, at: block.count - 2))
        #expect(try flip(payload, in: dataFile, at: payload.count - 20))
        // A byte of the damaged day's hour summary checksum.
        #expect(try flip(hourRow, in: dataFile, at: hourSegmentEnd - 2))

        let damaged = try TrendStore(directory: copy.url, options: options)
        let report = try await damaged.verify()
        #expect(report.problems.contains { $0.kind == .damagedBlock && $0.series == "energy" })
        #expect(
            report.problems.contains { $0.kind == .rollupMismatch || $0.kind == .damagedRollup })
        #expect(
            report.problems.contains {
                $0.kind == .rollupMismatch && $0.detail.contains("hour summary")
                    && $0.at == Date(milliseconds: (damagedDay.dayNumber - 1) * 86_400_000)
            })
        // Quarter-hour statistics read the damaged rollup row's slots: they throw too.
        #expect(throws: StoreError.self) {
            try damaged.statistics(
                of: "energy", from: Date(milliseconds: damagedDay.dayNumber * 86_400_000),
                to: Date(milliseconds: (damagedDay.dayNumber + 1) * 86_400_000),
                interval: .minutes(15), options: [.sum])
        }
        #expect(throws: StoreError.self) {
            try damaged.samples(of: "energy", from: .distantPast, to: .distantFuture)
        }
        // The day whose summary was hit: its curve throws rather than showing wrong numbers; its neighbours answer as before.
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
