import Foundation
import Testing
import TestSupport
@testable import TrendStore
import TrendStoreTesting

/// The decoded-block cache keeps the blocks of a window read again and again (the weekday
/// averages of a zone whose hours the summaries do not share), within its sample budget.
@Suite("Decoded block cache")
struct DecodedBlockCacheTests {
    /// Decodes every block of `series` in `store` through `cache`; returns the decoded blocks.
    private static func readAll(
        _ series: String, of store: TrendStore, through cache: DecodedBlockCache
    ) throws -> [DecodedBlock] {
        let storage = store.engine.storage
        return try store.engine.read { txn in
            let record = try storage.requireSeries(named: series, in: txn)
            var blocks: [DecodedBlock] = []
            try storage.forEachBlock(
                of: record, startingFrom: 0, through: Int64.max / 2, in: txn
            ) { firstStart, bytes, _ in
                blocks.append(
                    try cache.block(
                        firstStart, of: record, bytes: bytes, storage: storage,
                        zlib: ZlibCodec()))
                return true
            }
            return blocks
        }
    }

    @Test("a window within the budget stays whole however it is cycled; past it, the budget holds")
    func budget() async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 9)
            try await store.write(
                generator.minuteSamples(from: 20_000 * 86_400_000, count: 60_000), to: "energy",
                unit: "kcal")
            let roomy = DecodedBlockCache(sampleBudget: 60_000, entryLimit: 256)
            let first = try Self.readAll("energy", of: store, through: roomy)
            #expect(first.count >= 4, "\(first.count) blocks")
            for _ in 0..<3 {
                let again = try Self.readAll("energy", of: store, through: roomy)
                #expect(zip(first, again).allSatisfy { $0 === $1 }, "decoded again")
            }
            #expect(roomy.heldSamples == 60_000)

            let tight = DecodedBlockCache(sampleBudget: 20_000, entryLimit: 256)
            _ = try Self.readAll("energy", of: store, through: tight)
            #expect(tight.heldSamples <= 20_000)
            #expect(tight.heldSamples > 0)
            let few = DecodedBlockCache(sampleBudget: 1_000_000, entryLimit: 2)
            let blocks = try Self.readAll("energy", of: store, through: few)
            #expect(few.heldSamples == blocks.suffix(2).map(\.samples.count).reduce(0, +))
        }
    }

    @Test("a walk from inside a block hands on the header it read of that block, and no other")
    func walkHandsOnBoundaryHeader() async throws {
        try await withTemporaryStore { store, _ in
            var generator = SampleGenerator(seed: 10)
            try await store.write(
                generator.minuteSamples(from: 20_000 * 86_400_000, count: 20_000), to: "energy",
                unit: "kcal")
            let storage = store.engine.storage
            let walked: [(firstStart: Int64, handed: Bool)] =
                try store.engine.read { txn in
                    let record = try storage.requireSeries(named: "energy", in: txn)
                    // Ten minutes into the series: inside its first block, after its key.
                    let from = 20_000 * 86_400_000 + 600_000
                    var walked: [(Int64, Bool)] = []
                    try storage.forEachBlock(
                        of: record, startingFrom: Int64(from), through: Int64.max / 2, in: txn
                    ) { firstStart, bytes, header in
                        let read = try BlockCodec.header(bytes)
                        let same = header.map {
                            ($0.count, $0.minimumStart, $0.maximumStart)
                                == (read.count, read.minimumStart, read.maximumStart)
                        }
                        #expect(same ?? true)
                        walked.append((firstStart, header != nil))
                        return true
                    }
                    return walked
                }
            #expect(walked.count >= 2, "\(walked.count) blocks")
            #expect(walked.first?.firstStart ?? 0 < 20_000 * 86_400_000 + 600_000)
            #expect(
                walked.map(\.handed) == [true] + Array(repeating: false, count: walked.count - 1))
        }
    }
}
