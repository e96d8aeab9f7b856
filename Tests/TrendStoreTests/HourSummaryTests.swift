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
        #expect(throws: RowDamage.self) {
            try Self.forEachHour(row, series: 10, group: group, phase: phase) { _, _, _ in }
        }
        if phase != .utc {
            #expect(throws: RowDamage.self) {
                try Self.forEachHour(row, series: 9, group: group, phase: .utc) { _, _, _ in }
            }
        }
        for index in row.indices {
            var damaged = row
            damaged[index] ^= 0x10
            #expect(throws: RowDamage.self, "byte \(index)") {
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

    @Test(
        "a day's summary built from its rollup is the one built from its stored row, byte for byte, in every phase, both kinds, both row layouts"
    )
    func summaryFromRollupMatchesRow() throws {
        let day: Int64 = 20_400
        let dayStart = day * TimeGrid.day
        var checked = 0
        for seed in 0..<16 {
            var generator = SampleGenerator(seed: seed)
            let minutes = generator.minuteSamples(from: dayStart - 90_000, count: 1_500)
            let awkward = generator.awkwardSamples(
                in: (dayStart - TimeGrid.day)..<(dayStart + 2 * TimeGrid.day), count: 200)
            // Decimal values (the exact form), any values (the `Double` form), a `-0.0`
            // crossing in, a lone sample.
            let decimal = awkward.map {
                Sample(
                    startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds,
                    value: ($0.value * 100).rounded() / 100)
            }
            let edge = Sample(
                startMilliseconds: dayStart - 1, endMilliseconds: dayStart + 899_999, value: -0.0)
            let sets = [minutes, minutes + decimal, awkward, decimal + [edge], [edge], []]
            for samples in sets {
                let sorted = samples.sorted {
                    ($0.startMilliseconds, $0.endMilliseconds)
                        < ($1.startMilliseconds, $1.endMilliseconds)
                }
                for kind in [SeriesKind.cumulative, .discrete] {
                    let rollup = DayRollup.build(day: day, kind: kind, from: sorted)
                    for quarters in 0...3 {
                        let phase = try #require(
                            HourPhase(milliseconds: Int64(quarters) * TimeGrid.quarterHour))
                        let fromRollup = HourSummaryCodec.segment(
                            DayHours.build(from: rollup, phase: phase), day: day, series: 4)
                        for row in [
                            RollupRowCodec.encode(rollup), RollupRowCodec.encodeFull(rollup),
                        ] {
                            let fromRow = try row.withUnsafeBytes {
                                HourSummaryCodec.segment(
                                    try DayHours.build(fromRow: $0, day: day, phase: phase),
                                    day: day, series: 4)
                            }
                            #expect(
                                fromRollup == fromRow, "seed \(seed), \(kind), phase \(quarters)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 16 * 6 * 2 * 4 * 2)
    }

    /// Every key and value of the store's `hours` database.
    private static func hourRows(of store: TrendStore) throws -> [[UInt8]: [UInt8]] {
        try store.engine.read { txn in
            var rows: [[UInt8]: [UInt8]] = [:]
            try txn.withCursor(store.engine.storage.hours.database) {
                try $0.forEach { key, value in
                    rows[Array(key)] = Array(value)
                    return true
                }
            }
            return rows
        }
    }

    @Test(
        "answers from hour summaries have the very bits of answers from slots",
        arguments: ZoneCase.all)
    func sameBitsAsSlots(zoneCase: ZoneCase) async throws {
        var options = StoreOptions.quarterHourGrid
        options.timeZone = zoneCase.zone
        try await withTemporaryStore(options: options) { store, directory in
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
            #expect(try await store.verify().isHealthy)
            let from = Date(milliseconds: center - 5 * TimeGrid.day)
            let to = Date(milliseconds: center + 5 * TimeGrid.day + 1_800_000)
            let now = Date(milliseconds: center + 6 * TimeGrid.day + 654_321)
            func answers(of store: TrendStore) throws -> [String] {
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
            let fromHours = try answers(of: store)
            var slotsOnly = options
            slotsOnly.readsHourSummaries = false
            let fromSlots = try answers(
                of: try TrendStore(directory: directory, options: slotsOnly))
            #expect(fromHours.count == fromSlots.count)
            for (index, (hours, slots)) in zip(fromHours, fromSlots).enumerated() {
                let same = hours == slots
                #expect(same, "answer \(index) in \(zoneCase.identifier): \(hours.prefix(300))")
            }
        }
    }
}
