import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
@testable import TrendStore

/// A bulk write's blocks and rows made on several threads: the same bytes and rows as made
/// one at a time, in order, and blocks that fill their pages without outgrowing them.
@Suite("Writes spread over threads")
struct ConcurrentWriteTests {
    struct Refused: Error, Equatable { let index: Int }

    @Test("concurrent work answers in index order and rethrows the first error by index")
    func workInOrder() throws {
        #expect(try ConcurrentWork.map(0) { $0 }.isEmpty)
        #expect(try ConcurrentWork.map(1) { $0 * 3 } == [0])
        #expect(try ConcurrentWork.map(9) { $0 * $0 } == (0..<9).map { $0 * $0 })
        #expect(throws: Refused(index: 2)) {
            try ConcurrentWork.map(6) { index -> Int in
                if index == 2 || index == 5 { throw Refused(index: index) }
                return index
            }
        }
    }

    /// Minute samples whose values take more digits as they go: each block packs worse than
    /// the one before it.
    static func thickening(count: Int, seed: UInt64) -> [Sample] {
        var random = SeededGenerator(seed: seed)
        let start: Int64 = 1_762_992_000_000
        return (0..<count).map { index in
            let begin = start + Int64(index) * 60_000
            let scale = pow(10, 1 + 7 * Double(index) / Double(count))
            let value = (Double.random(in: 0..<1, using: &random) * scale).rounded() / 10_000
            return Sample(startMilliseconds: begin, endMilliseconds: begin + 60_000, value: value)
        }
    }

    @Test("the parts of a write are encoded to the bytes each gives alone, in order")
    func partsEncodedAlone() throws {
        let samples = Self.thickening(count: 40_000, seed: 1)
        let parts = stride(from: 0, to: samples.count, by: 5_000).map {
            samples[$0..<min($0 + 5_000, samples.count)]
        }
        var encoder = BlockEncoder(zlib: ZlibCodec())
        let alone = try parts.map { try BlockCodec.encode($0, zlib: ZlibCodec()) }
        #expect(try encoder.encode(parts) == alone)
        #expect(try encoder.encode(Array(parts.prefix(2))) == Array(alone.prefix(2)))
    }

    @Test(
        "a bulk write of samples packing ever worse: every block within its pages and filling most of them, samples and rows exact"
    )
    func thickeningBulkWrite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TrendStore(directory: directory.url, options: .unsyncedUTC)
        let samples = Self.thickening(count: 200_000, seed: 2)
        try await store.write(samples, to: "e", unit: "kcal")
        #expect(
            bitIdentical(
                try store.samples(of: "e", from: .distantPast, to: .distantFuture), samples))

        let storage = store.engine.storage
        let blocks = try store.engine.read { txn in
            let record = try storage.requireSeries(named: "e", in: txn)
            var blocks: [(count: Int, bytes: Int)] = []
            try storage.forEachBlock(of: record, startingFrom: .min / 2, through: .max / 2, in: txn)
            { _, bytes, _ in
                let header = try BlockCodec.header(bytes)
                blocks.append((header.count, bytes.count))
                return true
            }
            return blocks
        }
        #expect(blocks.count > 20)
        #expect(blocks.reduce(0) { $0 + $1.count } == samples.count)
        // Each block planned from the one before packs worse than it: a part that outgrew
        // its four pages was cut again, so none takes a fifth page for a few bytes.
        for (index, block) in blocks.enumerated() {
            #expect(block.bytes <= SampleStorage.targetBlockBytes, "block \(index)")
        }
        // And the blocks before the last not cut at the most samples a block holds fill
        // most of their pages.
        let sized = blocks.dropLast().filter { $0.count < SampleStorage.maximumBlockSamples }
        #expect(sized.count > 20)
        #expect(
            Double(sized.reduce(0) { $0 + $1.bytes })
                >= 0.9 * Double(SampleStorage.targetBlockBytes * sized.count))
        // Every day's curve totals its samples, summed here.
        for day in stride(from: 0, to: samples.count, by: 9 * 1_440) {
            let dayStart = samples[day].startMilliseconds / 86_400_000 * 86_400_000
            let total = samples.filter {
                $0.startMilliseconds >= dayStart && $0.startMilliseconds < dayStart + 86_400_000
            }.reduce(0) { $0 + $1.value }
            let date = LocalDate(
                containing: Date(timeIntervalSince1970: Double(dayStart) / 1_000),
                in: TimeZone(identifier: "UTC")!)
            #expect(abs(try store.dayCurve(of: "e", on: date).total - total) <= 1e-9 * total)
        }
        #expect(try await store.verify().problems.isEmpty)
    }
}
