import Foundation
import Testing
import TestSupport
@testable import TrendStore

@Suite("Writing and reading samples")
struct StoreWriteTests {
    @Test("writing the same batch twice changes nothing")
    func idempotentUpsert() async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 3)
            let batch = generator.minuteSamples(from: 1_700_000_000_000, count: 20_000)
            let first = try await store.write(batch, to: "energy", unit: "kcal")
            #expect(first == WriteSummary(inserted: 20_000, replaced: 0, unchanged: 0))
            let snapshot = try store.engine.read { txn in try dump(store.engine, txn) }
            let second = try await store.write(batch.shuffled(), to: "energy", unit: "kcal")
            #expect(second == WriteSummary(inserted: 0, replaced: 0, unchanged: 20_000))
            #expect(try store.engine.read { txn in try dump(store.engine, txn) } == snapshot)
        }
    }

    @Test("within a batch the last occurrence of an identity wins")
    func lastOccurrenceWins() async throws {
        try await withTemporaryStore { store, _ in
            let a = Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)
            var b = a
            b.value = 2
            let summary = try await store.write([a, b], to: "e", unit: "kcal")
            #expect(summary.inserted == 1)
            #expect(try store.samples(of: "e", from: .distantPast, to: .distantFuture) == [b])
            let again = try await store.write([a], to: "e", unit: "kcal")
            #expect(again.replaced == 1)
            #expect(try store.samples(of: "e", from: .distantPast, to: .distantFuture) == [a])
        }
    }

    @Test("samples persist across closing and reopening, with the store's time zone")
    func persistence() async throws {
        try await withTemporaryDirectory { directory in
            var generator = SampleGenerator(seed: 11)
            let batch = generator.minuteSamples(from: 1_600_000_000_000, count: 3_000)
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "Asia/Kathmandu")
            do {
                let store = try TrendStore(directory: directory.url, options: options)
                try await store.write(batch, to: "energy", unit: "kcal")
            }
            let reopened = try TrendStore(directory: directory.url)
            #expect(reopened.timeZone.identifier == "Asia/Kathmandu")
            let sorted = batch.sorted { $0.startMilliseconds < $1.startMilliseconds }
            #expect(
                try reopened.samples(of: "energy", from: .distantPast, to: .distantFuture) == sorted
            )
            let info = try #require(try reopened.series().first)
            #expect(info.sampleCount == 3_000 && info.unit == "kcal")
            #expect(info.firstStart == sorted.first!.start)
            #expect(try await reopened.verify().isHealthy)
        }
    }

    @Test("range reads return exactly the samples starting in the range")
    func rangeReads() async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 5)
            let batch = generator.minuteSamples(from: 1_650_000_000_000, count: 30_000)
            try await store.write(batch, to: "e", unit: "kcal")
            for _ in 0..<20 {
                let from = generator.integer(in: 1_649_000_000_000...1_652_000_000_000)
                let to = from + generator.integer(in: 0...900_000_000)
                let expected = batch.filter {
                    $0.startMilliseconds >= from && $0.startMilliseconds < to
                }
                #expect(
                    try store.samples(
                        of: "e", from: Date(milliseconds: from), to: Date(milliseconds: to))
                        == expected)
            }
        }
    }

    @Test("deleting a series removes its chunks and rollups and leaves others")
    func deleteSeries() async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 9)
            try await store.write(
                generator.minuteSamples(from: 0, count: 5_000), to: "a", unit: "kcal")
            let kept = generator.minuteSamples(from: 0, count: 5_000)
            try await store.write(kept, to: "b", unit: "kcal")
            try await store.deleteSeries("a")
            #expect(try store.series().map(\.name) == ["b"])
            #expect(throws: StoreError.unknownSeries("a", closest: ["b"])) {
                try store.samples(of: "a", from: .distantPast, to: .distantFuture)
            }
            #expect(try store.samples(of: "b", from: .distantPast, to: .distantFuture) == kept)
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test("Date conversion floors sub-milliseconds and survives floating point")
    func dateConversion() {
        #expect(Date(timeIntervalSince1970: 1.2345).millisecondsSince1970 == 1234)
        #expect((Date(timeIntervalSince1970: -0.0005)).millisecondsSince1970 == -1)
        for ms: Int64 in [1_234_567_890_123, 1_700_000_000_001, -86_400_001, 253_402_300_799_999] {
            #expect(Date(milliseconds: ms).millisecondsSince1970 == ms)
        }
    }
}

/// Every key and value of the series, blocks, days and hours databases.
func dump(_ engine: StoreEngine, _ txn: borrowing ReadTransactionAlias) throws -> [[UInt8]] {
    var entries: [[UInt8]] = []
    for database in [
        engine.storage.series.database, engine.storage.blocks.database,
        engine.storage.days.database, engine.storage.hours.database,
    ] {
        try txn.withCursor(database) { cursor in
            try cursor.forEach { key, value in
                entries.append(Array(key) + [0xFF] + Array(value)); return true
            }
        }
    }
    return entries
}
