import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

@Suite("Integrity check")
struct VerifyTests {
    @Test("a healthy store verifies, counting what it checked")
    func healthy() async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 1)
            try await store.write(
                generator.minuteSamples(from: 1_700_000_000_000, count: 30_000), to: "e",
                unit: "kcal")
            let report = try await store.verify()
            #expect(report.isHealthy)
            #expect(report.samplesChecked == 30_000)
            #expect(report.blocksChecked >= 3)
            #expect(report.rollupsChecked >= 20)
        }
    }

    @Test(
        "a damaged block is reported with its series and start, and reads fail instead of lying",
        arguments: [0, 20, 41, 200])
    func damagedChunk(offset: Int) async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 2)
            try await store.write(
                generator.minuteSamples(from: 1_700_000_000_000, count: 30_000), to: "e",
                unit: "kcal")
            let engine = store.engine
            let damagedBlock: Int64 = try engine.write { txn, _ in
                let record = try engine.storage.requireSeries(named: "e", in: txn)
                let blocks = engine.storage.blocks.database
                let block = try engine.storage.blockStarts(
                    of: record, startingFrom: .min, through: .max, in: txn)[1]
                let key = StorageKey.make(series: record.id, index: block)
                var bytes = try #require(try txn.value(forKey: key, in: blocks))
                bytes[offset] ^= 0x04
                try txn.put(bytes, forKey: key, in: blocks)
                return block
            }
            let report = try await store.verify()
            let damaged = report.problems.filter { $0.kind == .damagedBlock }
            #expect(damaged.count == 1)
            #expect(damaged.first?.series == "e")
            #expect(
                damaged.first.map { ($0.at).millisecondsSince1970 } == damagedBlock)
            #expect(report.problems.allSatisfy { $0.kind == .damagedBlock }, "\(report.problems)")
            #expect(throws: StoreError.self) {
                try store.samples(of: "e", from: .distantPast, to: .distantFuture)
            }
        }
    }

    @Test("a tampered rollup is reported as a mismatch")
    func tamperedRollup() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, _ in
            var generator = SampleGenerator(seed: 4)
            try await store.write(
                generator.minuteSamples(from: 1_700_000_000_000, count: 5_000), to: "e",
                unit: "kcal")
            try Self.tamperSecondRow(of: "e", in: store)
            let report = try await store.verify()
            #expect(report.problems.map(\.kind) == [.rollupMismatch])
        }
    }

    @Test("among many series, a tampered row is reported for its own series only")
    func tamperedRowAmongMany() async throws {
        try await withTemporaryStore(options: .quarterHourGrid) { store, _ in
            var generator = SampleGenerator(seed: 5)
            for index in 0..<40 {
                try await store.write(
                    generator.minuteSamples(
                        from: 1_700_000_000_000 + Int64(index) * 3_600_000, count: 3_000),
                    to: "s\(index)", unit: "kcal")
            }
            try Self.tamperSecondRow(of: "s17", in: store)
            let report = try await store.verify()
            #expect(report.seriesChecked == 40)
            #expect(report.problems.map(\.kind) == [.rollupMismatch])
            #expect(report.problems.map(\.series) == ["s17"])
        }
    }

    /// Flips a bit inside the second rollup row of `series`: its checksum no longer matches.
    static func tamperSecondRow(of series: String, in store: TrendStore) throws {
        let engine = store.engine
        try engine.write { txn, _ in
            let record = try engine.storage.requireSeries(named: series, in: txn)
            let days = engine.storage.days.database
            let day = try engine.storage.rowDays(series: record.id, in: txn)[1]
            let key = StorageKey.dayRowKey(series: record.id, day: day)
            var bytes = try #require(try txn.value(forKey: key, in: days))
            bytes[bytes.count / 2] ^= 0x01
            try txn.put(bytes, forKey: key, in: days)
        }
    }
}
