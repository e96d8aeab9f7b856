import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// What a query decodes of each rollup row: the slots its ranges cover (``DaySlots``), read
/// with the same bits as from the whole row.
@Suite("Day slots")
struct DaySlotsTests {
    private static let hour = TimeGrid.hour
    private static let quarter = TimeGrid.quarterHour

    @Test("the days a query's ranges touch, each with its slots from the first covered to the last")
    func coveredSlots() {
        func instant(_ day: Int64, _ milliseconds: Int64) -> Int64 {
            day * TimeGrid.day + milliseconds
        }
        var ranges = InstantRanges()
        // Two local days of a zone at +5:45, a week apart: 18:15 UTC to 18:15 UTC.
        let offset = 18 * Self.hour + Self.quarter
        ranges.append(instant(100, offset), instant(101, offset))
        ranges.append(instant(107, offset), instant(108, offset))
        // Two hours of one day, apart: one hull.
        ranges.append(instant(120, Self.hour), instant(120, 2 * Self.hour))
        ranges.append(instant(120, 5 * Self.hour), instant(120, 6 * Self.hour))
        // Part of a quarter-hour counts as the whole slot.
        ranges.append(
            instant(130, 10 * Self.hour + 7 * 60_000), instant(130, 10 * Self.hour + 1_200_000))
        // An empty range touches nothing.
        ranges.append(instant(140, 0), instant(140, 0))
        let slots = ranges.daySlots
        #expect(slots.days == [100, 101, 107, 108, 120, 130])
        #expect(
            slots.days.map(slots.slots(ofDay:)) == [
                73..<96, 0..<73, 73..<96, 0..<73, 4..<24, 40..<42,
            ])
        #expect(slots.slots(ofDay: 99) == 0..<96)
        #expect(DaySlots(wholeDays: [5, 9]).slots(ofDay: 9) == 0..<96)
    }

    @Test(
        "rows decoded for a query's slots hold those slots' figures with the same bits as whole rows, and nothing else"
    )
    func partialRowsMatchWholeRows() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, _ in
            var generator = SampleGenerator(seed: 11)
            let firstDay: Int64 = 20_100
            // Minute samples with jitter: a crossing at nearly every boundary, rows of version 4.
            let samples = generator.minuteSamples(
                from: firstDay * TimeGrid.day + 12_345, count: 5_000)
            try await store.write(samples, to: "energy", unit: "kcal")
            let engine = store.engine
            try engine.read { txn in
                let record = try engine.storage.requireSeries(named: "energy", in: txn)
                let days = (0..<4).map { firstDay + Int64($0) }
                let rowDatabase = engine.storage.days.database
                var compactRows = 0
                for day in days {
                    try StorageKey.dayRowKey(series: record.id, day: day).withUnsafeBytes { key in
                        _ = try txn.withValue(forKey: key, in: rowDatabase) {
                            if RollupRowCodec.isCompact($0) { compactRows += 1 }
                        }
                    }
                }
                #expect(compactRows == days.count)
                let whole = try RollupRows(
                    storage: engine.storage, record: record, days: DaySlots(wholeDays: days),
                    includesStarts: true, txn: txn)
                // Local days at +5:45 and a lone hour: parts of every row.
                var ranges = InstantRanges()
                let offset = 18 * Self.hour + Self.quarter
                ranges.append(days[0] * TimeGrid.day + offset, days[1] * TimeGrid.day + offset)
                ranges.append(days[2] * TimeGrid.day + offset, days[3] * TimeGrid.day + offset)
                // An hour after the last local day ends: its row is decoded up to it.
                ranges.append(
                    days[3] * TimeGrid.day + 20 * Self.hour + Self.quarter,
                    days[3] * TimeGrid.day + 21 * Self.hour + Self.quarter)
                let covered = ranges.daySlots
                let partial = try RollupRows(
                    storage: engine.storage, record: record, days: covered, includesStarts: true,
                    txn: txn)
                var compared = 0
                for day in days {
                    let wanted = covered.slots(ofDay: day)
                    let wholeBase = try #require(whole.base(ofDay: day))
                    let partialBase = try #require(partial.base(ofDay: day))
                    for slot in 0..<DayRollup.slotCount {
                        let (w, p) = (wholeBase + slot, partialBase + slot)
                        if wanted.contains(slot) {
                            #expect(
                                partial.prorated[p].bitPattern == whole.prorated[w].bitPattern,
                                "day \(day) slot \(slot)")
                            #expect(partial.touched[p] == whole.touched[w])
                            #expect(partial.startCounts[p] == whole.startCounts[w])
                            #expect(
                                partial.startSums[p].bitPattern == whole.startSums[w].bitPattern)
                            compared += whole.touched[w] ? 1 : 0
                        } else {
                            #expect(partial.prorated[p] == 0 && !partial.touched[p])
                            #expect(partial.startCounts[p] == 0 && partial.startSums[p] == 0)
                        }
                    }
                }
                // Two local days (2 × 96 slots) and the hull from 18:15 to the lone hour's
                // end (12 more), every one with data: minute samples cover them all.
                #expect(compared == 204)
                #expect(covered.slots(ofDay: days[3]) == 0..<85)
            }
        }
    }
}
