import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// The hour summaries: the same bits as the slots they summarise, in every zone; kept in
/// step by every write; built by migration 0005 exactly as writes build them; checked.
@Suite("Hour summaries")
struct HourSummaryTests {
    @Test("CRC-32C: the check value, and the CPU's instruction equal to the table on any bytes")
    func crc32c() {
        let check = Array("123456789".utf8).withUnsafeBytes { CRC32C.checksum($0) }
        #expect(check == 0xE306_9283)
        var generator = SampleGenerator(seed: 3)
        for length in [
            0, 1, 7, 8, 9, 63, 64, 65, 191, 192, 193, 297, 767, 768, 769, 1_000, 1_065, 4_099,
        ] {
            let bytes = (0..<length).map { _ in UInt8(generator.integer(in: 0...255)) }
            bytes.withUnsafeBytes { bytes in
                for start in 0..<min(3, length + 1) {
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[start...])
                    #expect(
                        CRC32C.checksum(slice, continuing: 77)
                            == CRC32C.portableChecksum(slice, continuing: 77), "length \(length)")
                }
            }
        }
    }

    @Test(
        "a segment reads back what was written, wide counts and durations and a phase's head included; any flipped byte is refused",
        arguments: [0, 1, 3])
    func codecRoundTrip(quarters: Int64) throws {
        let phase = try #require(HourPhase(milliseconds: quarters * TimeGrid.quarterHour))
        var summary = DayHours(kind: .discrete, phase: phase)
        let day: Int64 = 20_000
        var entries = [(0, UInt64(3)), (5, UInt64(UInt32.max) + 9), (23, 1)]
        if phase != .utc { entries.append((HourPhase.headEntry, 2)) }
        for (hour, count) in entries {
            let start = phase.start(ofEntry: hour, day: day) + 1_234
            summary.hours[hour] = RunFigures(
                hasData: true, count: count, sum: -0.0 + Double(hour) * 1.5, minimum: -2.5,
                maximum: 1e300,
                latest: Sample(
                    startMilliseconds: start,
                    endMilliseconds: start + (hour == 23 ? 90 * TimeGrid.day : 5_000), value: 7))
        }
        let segment = try #require(HourSummaryCodec.segment(summary, day: day, series: 9))
        let row = try #require(HourSummaryCodec.row(kind: .discrete, segments: [segment]))
        let group = HourSummaryCodec.group(ofDay: day, kind: .discrete)
        var read = DayHours(kind: .discrete, phase: phase)
        try Self.forEachHour(row, series: 9, group: group, phase: phase) {
            readDay, hour, figures in
            #expect(readDay == day)
            read.hours[hour] = figures
        }
        #expect(read == summary)
        // Under another series' key, or flipped anywhere, the row is refused; a head is
        // refused in hours that are UTC hours.
        #expect(throws: RollupCodec.Damage.self) {
            try Self.forEachHour(row, series: 10, group: group, phase: phase) { _, _, _ in }
        }
        if phase != .utc {
            #expect(throws: RollupCodec.Damage.self) {
                try Self.forEachHour(row, series: 9, group: group, phase: .utc) { _, _, _ in }
            }
        }
        for index in row.indices {
            var damaged = row
            damaged[index] ^= 0x10
            #expect(throws: RollupCodec.Damage.self, "byte \(index)") {
                try Self.forEachHour(damaged, series: 9, group: group, phase: phase) { _, _, _ in }
            }
        }
    }

    /// Calls `body(day, entry, figures)` for each entry with data of a discrete series' row
    /// with hours of `phase`.
    private static func forEachHour(
        _ row: [UInt8], series: UInt32, group: Int64, phase: HourPhase,
        _ body: (Int64, Int, RunFigures) -> Void
    ) throws {
        try row.withUnsafeBytes { row in
            try HourSummaryCodec.forEachSegment(
                row, series: series, group: group, kind: .discrete, phase: phase,
                isWanted: { _ in true }
            ) { day, segment in
                let hours = HourSummaryCodec.hours(of: segment)
                for entry in 0..<DayHours.entryCount where hours & (1 << UInt32(entry)) != 0 {
                    var figures = RunFigures()
                    HourSummaryCodec.add(
                        hours: 1 << UInt32(entry), of: segment, day: day, phase: phase,
                        kind: .discrete, into: &figures)
                    body(day, entry, figures)
                }
            }
        }
    }

    /// Every key and value of the store's `hours` database.
    private static func hourRows(of store: TrendStore) throws -> [[UInt8]: [UInt8]] {
        try store.engine.read { txn in
            var rows: [[UInt8]: [UInt8]] = [:]
            try txn.withCursor(try store.engine.storage.formatTwoDatabases().hours) {
                try $0.forEach { key, value in
                    rows[Array(key)] = Array(value)
                    return true
                }
            }
            return rows
        }
    }

    /// Removes the record that summaries are complete, so readers add slots instead.
    private static func disableSummaries(_ store: TrendStore) throws {
        try store.engine.write { txn, _ in
            try txn.delete(
                forKey: Array("hour-summaries-complete".utf8), in: store.engine.storage.meta)
        }
    }

    @Test(
        "answers from hour summaries have the very bits of answers from slots",
        arguments: ZoneCase.all)
    func sameBitsAsSlots(zoneCase: ZoneCase) async throws {
        var options = StoreOptions.quarterHourGrid
        options.timeZone = zoneCase.zone
        try await withTemporaryStore(options: options) { store, _ in
            let center = zoneCase.transition
            let labels = ReferenceAggregator(zone: zoneCase.zone)
            try await store.write([
                SeriesSamples(
                    series: "heartRate", unit: "count/min", kind: .discrete,
                    samples: StatisticsReferenceTests.measurements(
                        around: center, seed: Int(center % 911), reference: labels)),
                SeriesSamples(
                    series: "energy", unit: "kcal",
                    samples: samplesAround(center, days: 6, seed: Int(center % 577), awkward: 300)),
            ])
            #expect(try store.verify().isHealthy)
            let from = Date(milliseconds: center - 5 * TimeGrid.day)
            let to = Date(milliseconds: center + 5 * TimeGrid.day + 1_800_000)
            let now = Date(milliseconds: center + 6 * TimeGrid.day + 654_321)
            func answers() throws -> [String] {
                var result: [String] = []
                let intervals: [StatisticsInterval] = [
                    .minutes(15), .minutes(30), .hours(1), .hours(3), .days(1), .weeks(1),
                    .months(1),
                ]
                for interval in intervals {
                    for anchor in [nil, Date(milliseconds: center - 1_800_000)] {
                        let discrete = try store.statistics(
                            of: "heartRate", from: from, to: to, interval: interval, anchor: anchor,
                            options: [.sum, .average, .minimum, .maximum, .count, .mostRecent])
                        let cumulative = try store.statistics(
                            of: "energy", from: from, to: to, interval: interval, anchor: anchor,
                            options: [.sum, .count])
                        result.append("\(discrete)")
                        result.append("\(cumulative)")
                    }
                }
                result.append(
                    "\(try store.weekdayAverages(of: "energy", now: now, options: .init(window: .allTime)))"
                )
                result.append("\(try store.todayCurve(of: "energy", now: now))")
                let today = labels.date(of: center)
                for offset in -4...4 {
                    result.append(
                        "\(try store.dayCurve(of: "energy", on: today.adding(days: offset)))")
                }
                return result
            }
            let fromHours = try answers()
            try Self.disableSummaries(store)
            let fromSlots = try answers()
            #expect(fromHours.count == fromSlots.count)
            for (index, (hours, slots)) in zip(fromHours, fromSlots).enumerated() {
                let same = hours == slots
                #expect(same, "answer \(index) in \(zoneCase.identifier): \(hours.prefix(300))")
            }
        }
    }

    @Test(
        "migration 0005 builds, in batches, the very summaries that writes keep; the store verifies"
    )
    func migrationBuildsWhatWritesKeep() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, directory in
            // Two series over 2,200 days: 4,400 rows, two batches of the migration.
            var generator = SampleGenerator(seed: 5)
            let first: Int64 = 18_000 * TimeGrid.day
            let energy = (0..<(2_200 * 6)).map { index -> Sample in
                let start =
                    first + Int64(index) * 4 * TimeGrid.hour + generator.integer(in: 0...3_000_000)
                return Sample(
                    startMilliseconds: start, endMilliseconds: start + 120_000,
                    value: Double(generator.integer(in: 0...9_999)) / 100)
            }
            let weights = (0..<2_200).map { day -> Sample in
                let start = first + Int64(day) * TimeGrid.day + 7 * TimeGrid.hour
                return Sample(
                    startMilliseconds: start, endMilliseconds: start,
                    value: 70 + Double(generator.integer(in: 0...99)) / 10)
            }
            try await store.write([
                SeriesSamples(series: "energy", unit: "kcal", samples: energy),
                SeriesSamples(series: "bodyMass", unit: "kg", kind: .discrete, samples: weights),
            ])
            let kept = try Self.hourRows(of: store)
            #expect(kept.count > 2_200 / 3)
            let weekly = try store.statistics(
                of: "bodyMass", from: Date(milliseconds: first),
                to: Date(milliseconds: first + 2_200 * TimeGrid.day), interval: .weeks(1),
                options: [.average, .minimum, .maximum, .mostRecent])
            // Back to format 3: no summaries, no record of the step (nor of 0006 to 0009
            // after it).
            try store.engine.write { txn, _ in
                let storage = store.engine.storage
                try txn.removeAll(in: try storage.formatTwoDatabases().hours)
                try txn.delete(forKey: Array("hour-summaries-complete".utf8), in: storage.meta)
                try StorageFormat.record(3, meta: storage.meta, in: txn)
                let applied = try Migrator.applied(store.engine.migrationContext, in: txn)
                try txn.put(
                    Array(applied.dropLast(5).joined(separator: "\n").utf8),
                    forKey: Array("migrations".utf8), in: storage.meta)
            }
            #expect(try Self.hourRows(of: store).isEmpty)
            await store.close()
            let reopened = try TrendStore(directory: directory)
            #expect(try reopened.formatVersion == 9)
            #expect(
                try reopened.appliedMigrations().suffix(5) == [
                    "0005-hour-summaries", "0006-row-checksums", "0007-compact-rows",
                    "0008-packed-blocks", "0009-hour-phase",
                ])
            let rebuilt = try Self.hourRows(of: reopened)
            #expect(rebuilt == kept)
            #expect(try reopened.verify().isHealthy)
            #expect(
                try reopened.statistics(
                    of: "bodyMass", from: Date(milliseconds: first),
                    to: Date(milliseconds: first + 2_200 * TimeGrid.day), interval: .weeks(1),
                    options: [.average, .minimum, .maximum, .mostRecent]) == weekly)
        }
    }
}
