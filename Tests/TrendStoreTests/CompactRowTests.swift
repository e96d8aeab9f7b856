import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// Compact rollup rows (layout 2, ``CompactRowCodec``): cumulative days in the exact form whose
/// crossed slots are recomputed from the crossing samples.
@Suite("Compact rollup rows")
struct CompactRowTests {
    private static let day: Int64 = 20_400

    /// Samples of several shapes around `day`: contiguous minute samples (one crossing at
    /// nearly every boundary), two sources overlapping, samples across the day's edges,
    /// long samples, instants, values of mixed decimals, a `-0.0` crossing in from the day
    /// before (it has no scaled integer, so its slot is stored explicitly).
    private static func sampleSets(seed: Int) -> [[Sample]] {
        var generator = SampleGenerator(seed: seed)
        let dayStart = day * TimeGrid.day
        let minutes = generator.minuteSamples(from: dayStart - 90_000, count: 1_500)
        let second = generator.minuteSamples(from: dayStart + 1_234, count: 700)
        let awkward = generator.awkwardSamples(
            in: (dayStart - TimeGrid.day)..<(dayStart + 2 * TimeGrid.day), count: 300
        ).map {
            // Decimal values, as the exact form needs.
            Sample(
                startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds,
                value: ($0.value * 100).rounded() / 100)
        }
        let edges = [
            Sample(
                startMilliseconds: dayStart - 1, endMilliseconds: dayStart + 899_999, value: -0.0),
            Sample(
                startMilliseconds: dayStart + TimeGrid.day - 5,
                endMilliseconds: dayStart
                    + TimeGrid.day + 900_000, value: 2.5),
            Sample(
                startMilliseconds: dayStart + 899_000, endMilliseconds: dayStart + 901_000,
                value: 0.0001),
        ]
        return [minutes, minutes + second, minutes + awkward, edges, minutes + edges].map {
            $0.sorted {
                ($0.startMilliseconds, $0.endMilliseconds) < (
                    $1.startMilliseconds, $1.endMilliseconds
                )
            }
        }
    }

    /// Every slot of a row as `forEachSlot` reports it, values by their bits.
    private static func slots(_ row: [UInt8], in range: Range<Int> = 0..<DayRollup.slotCount)
        throws -> [[UInt64]]
    {
        var slots: [[UInt64]] = []
        try row.withUnsafeBytes {
            try RollupRowCodec.forEachSlot($0, in: range) { slot, prorated, count, startSum in
                slots.append([
                    UInt64(slot), prorated.bitPattern, UInt64(count), startSum.bitPattern,
                ])
            }
        }
        return slots
    }

    @Test(
        "a compact row (layout 2) reads back every field and every slot figure of the full row (layout 1), bit for bit, whole and from any slot"
    )
    func sameFiguresAsFullRow() throws {
        var rowsWithExplicitSlots = 0
        for seed in 0..<12 {
            for samples in Self.sampleSets(seed: seed) {
                let rollup = DayRollup.build(day: Self.day, kind: .cumulative, from: samples)
                #expect(rollup.exponent != nil)
                let compact = CompactRowCodec.encode(rollup)
                let old = RollupRowCodec.encodeFull(rollup)
                #expect(compact.first == CompactRowCodec.version)
                if compact[2] == 1 { rowsWithExplicitSlots += 1 }
                let decoded = try compact.withUnsafeBytes {
                    try RollupRowCodec.decode($0, day: Self.day)
                }
                #expect(decoded.touched == rollup.touched)
                #expect(decoded.startCounts == rollup.startCounts)
                #expect(decoded.exponent == rollup.exponent)
                #expect(decoded.startIntegers == rollup.startIntegers)
                #expect(decoded.escapingIntegers == rollup.escapingIntegers)
                #expect(decoded.shares.map(\.bitPattern) == rollup.shares.map(\.bitPattern))
                #expect(decoded.crossings == rollup.crossings)
                #expect(CompactRowCodec.encode(decoded) == compact)
                let all = try Self.slots(compact)
                #expect(all == (try Self.slots(old)))
                for first in [1, 37, 95] {
                    #expect(
                        try Self.slots(compact, in: first..<DayRollup.slotCount)
                            == all.filter { $0[0] >= UInt64(first) })
                    #expect(
                        try Self.slots(compact, in: first..<(first + 1))
                            == all.filter { $0[0] == UInt64(first) })
                }
            }
        }
        // Both paths ran: slots recomputed and slots stored explicitly.
        #expect(rowsWithExplicitSlots > 12 && rowsWithExplicitSlots < 60)
    }

    @Test(
        "a day of contiguous minute samples takes under 8 bytes a slot, against 13 or more in a full row, with no slot stored explicitly"
    )
    func minuteDayIsSmall() throws {
        var generator = SampleGenerator(seed: 5)
        // No gaps, so every boundary, the day's edges included, has one crossing sample.
        var cursor = Self.day * TimeGrid.day - 30_000
        let contiguous = (0..<1_460).map { _ -> Sample in
            let duration = generator.integer(in: 59_000...61_000)
            defer { cursor += duration }
            return Sample(
                startMilliseconds: cursor, endMilliseconds: cursor + duration,
                value: Double(generator.integer(in: 0...15_000)) / 1_000)
        }
        let rollup = DayRollup.build(day: Self.day, kind: .cumulative, from: contiguous)
        #expect(rollup.crossings.count == DayRollup.slotCount + 1)
        let compact = RollupRowCodec.encode(rollup)
        let old = RollupRowCodec.encodeFull(rollup)
        #expect(compact[2] == 0, "no explicit slots")
        #expect(compact.count < 8 * DayRollup.slotCount)
        #expect(old.count > 13 * DayRollup.slotCount)
    }

    @Test("a compact row with any byte changed or cut short is refused, never read as numbers")
    func damageIsCaught() throws {
        let samples = Self.sampleSets(seed: 3)[2]
        let rollup = DayRollup.build(day: Self.day, kind: .cumulative, from: samples)
        let row = CompactRowCodec.encode(rollup)
        for index in stride(from: 0, to: row.count, by: 7) {
            var damaged = row
            damaged[index] ^= 0x5A
            #expect(throws: RowDamage.self) { try Self.slots(damaged) }
        }
        for length in [0, 10, 29, row.count / 2, row.count - 1] {
            #expect(throws: RowDamage.self) { try Self.slots(Array(row.prefix(length))) }
        }
    }

    @Test(
        "discrete series, the Double form and days of a few samples take the full row; dense days the compact one"
    )
    func layoutChoice() {
        let samples = Self.sampleSets(seed: 1)[0]
        let discrete = DayRollup.build(day: Self.day, kind: .discrete, from: samples)
        #expect(RollupRowCodec.encode(discrete).first == RollupRowCodec.version)
        let doubles = samples.map {
            Sample(
                startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds,
                value: $0.value + 1e-13)
        }
        let inexact = DayRollup.build(day: Self.day, kind: .cumulative, from: doubles)
        #expect(inexact.exponent == nil)
        #expect(RollupRowCodec.encode(inexact).first == RollupRowCodec.version)
        // One body-mass reading a day: the compact row's fixed part outweighs what it saves.
        let start = Self.day * TimeGrid.day + 7 * TimeGrid.hour
        let weight = DayRollup.build(
            day: Self.day, kind: .cumulative,
            from: [Sample(startMilliseconds: start, endMilliseconds: start, value: 71.4)])
        let chosen = RollupRowCodec.encode(weight)
        #expect(chosen.first == RollupRowCodec.version)
        #expect(chosen.count < CompactRowCodec.encode(weight).count)
        // A dense day takes the compact row.
        let dense = DayRollup.build(day: Self.day, kind: .cumulative, from: samples)
        #expect(RollupRowCodec.encode(dense).first == CompactRowCodec.version)
    }

    @Test(
        "packed columns of every width 0…64 read back every value, from the middle of a buffer and at its very end"
    )
    func packedColumnsRoundTrip() {
        var generator = SampleGenerator(seed: 9)
        for width in 0...64 {
            let base = generator.integer(in: -1_000_000...1_000_000)
            let values = (0..<37).map { _ -> Int64 in
                let bits = UInt64(bitPattern: generator.integer(in: .min ... .max))
                let offset = width == 64 ? bits : bits & ((1 << UInt64(width)) - 1)
                return base &+ Int64(bitPattern: offset)
            }
            let column = PackedColumn(fitting: values + [base])
            #expect(column.width <= width)
            for padding in [0, 3, 16] {
                var writer = ByteWriter(capacity: 0)
                writer.append(contentsOf: [0xAB, 0xCD])
                column.appendBits(values, to: &writer)
                #expect(writer.bytes.count == 2 + column.byteCount(of: values.count))
                let bytes = writer.bytes + [UInt8](repeating: 0xFF, count: padding)
                let read = bytes.withUnsafeBytes { buffer in
                    values.indices.map { column.value(at: $0, offset: 2, in: buffer) }
                }
                #expect(read == values, "width \(width), padding \(padding)")
            }
        }
    }
}
