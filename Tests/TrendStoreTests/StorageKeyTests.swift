import Testing
import TrendStoreGenerator

@testable import TrendStore

/// The keys of the `blocks`, `hours` and `days` databases, byte for byte as FORMAT.md spells
/// them.
@Suite("Storage keys")
struct StorageKeyTests {
    @Test("a block key is the series, then the index with its sign bit flipped, big-endian")
    func blockKey() {
        #expect(
            StorageKey.make(series: 0x0102_0304, index: -1)
                == [1, 2, 3, 4, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(
            StorageKey.make(series: 7, index: 0x0102) == [0, 0, 0, 7, 0x80, 0, 0, 0, 0, 0, 1, 2])
    }

    @Test("a rollup row key is the day with its sign bit flipped, then the series, big-endian")
    func dayRowKey() {
        #expect(
            StorageKey.dayRowKey(series: 0x0A0B_0C0D, day: 20_414)
                == [0x80, 0, 0, 0, 0, 0, 0x4F, 0xBE, 0x0A, 0x0B, 0x0C, 0x0D])
    }

    @Test("keys parse back and sort as their numbers", arguments: 0..<4)
    func roundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let drawn = (0..<200).map { _ in Int64.random(in: .min ... .max, using: &generator) }
        let indexes = drawn + [.min, -1, 0, 1, .max]
        for index in indexes {
            let series = UInt32.random(in: 0 ... .max, using: &generator)
            let key = StorageKey.make(series: series, index: index)
            let parsed = try #require(key.withUnsafeBytes { StorageKey.parse($0) })
            #expect(parsed == (series, index))
            let row = StorageKey.dayRowKey(series: series, day: index)
            let parsedRow = try #require(row.withUnsafeBytes { StorageKey.parseDayRow($0) })
            #expect(parsedRow == (series, index))
        }
        let sorted = indexes.sorted()
        let keys = sorted.map { StorageKey.make(series: 3, index: $0) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { !$1.lexicographicallyPrecedes($0) })
    }
}
