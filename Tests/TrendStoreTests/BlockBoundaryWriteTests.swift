import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// Writes at a series' newest blocks: a batch that changes a full block's samples and
/// appends after it, and one-sample commits that begin a small tail block and fold it back.
@Suite("Writes at the newest block")
struct BlockBoundaryWriteTests {
    @Test("a batch that changes a full block's last sample and appends after it keeps both")
    func replacementBesideAppendAfterFullBlock() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TrendStore(directory: directory.url, options: .unsyncedUTC)
        // A first block of 4,096 samples (the writer's first guess), then one holding as
        // many as a block may: a full block, whatever its bytes.
        let start: Int64 = 1_762_992_000_000  // a UTC midnight
        let full = (0..<(4_096 + SampleStorage.maximumBlockSamples)).map { index in
            let begin = start + Int64(index) * 60_000
            return Sample(startMilliseconds: begin, endMilliseconds: begin + 60_000, value: 1)
        }
        try await store.write(full, to: "e", unit: "kcal")
        let last = full[full.count - 1]
        let changed = Sample(
            startMilliseconds: last.startMilliseconds, endMilliseconds: last.endMilliseconds,
            value: 5)
        let appended = Sample(
            startMilliseconds: last.endMilliseconds, endMilliseconds: last.endMilliseconds + 60_000,
            value: 2)
        try await store.write([changed, appended], to: "e", unit: "kcal")
        let expected = full.dropLast() + [changed, appended]
        #expect(
            bitIdentical(
                try store.samples(of: "e", from: .distantPast, to: .distantFuture),
                Array(expected)))
        // The day's rollups hold the changed value: its curve totals the day's samples.
        let date = LocalDate(
            containing: Date(timeIntervalSince1970: Double(last.startMilliseconds) / 1_000),
            in: TimeZone(identifier: "UTC")!)
        let dayStart = date.dayNumber * 86_400_000
        let dayTotal = expected.filter {
            $0.startMilliseconds >= dayStart && $0.startMilliseconds < dayStart + 86_400_000
        }.reduce(0) { $0 + $1.value }
        #expect(try store.dayCurve(of: "e", on: date).total == dayTotal)
        #expect(try await store.verify().problems.isEmpty)
    }

    /// The stored blocks of `series`: their bytes by key.
    private static func blocks(of series: String, in store: TrendStore) throws -> [Int64: [UInt8]] {
        let storage = store.engine.storage
        return try store.engine.read { txn in
            let record = try storage.requireSeries(named: series, in: txn)
            var blocks: [Int64: [UInt8]] = [:]
            try storage.forEachBlock(of: record, startingFrom: .min / 2, through: .max / 2, in: txn)
            { firstStart, bytes, _ in
                blocks[firstStart] = Array(bytes)
                return true
            }
            return blocks
        }
    }

    /// Minute samples as a watch delivers them: 3-decimal values (about 5 bytes a sample in a
    /// block), or the same value every minute (a block of 30,000 of them takes a few hundred
    /// bytes, so only its sample count says it has grown).
    enum Shape: String, CaseIterable, Sendable {
        case minuteValues, constant

        func arrivals(count: Int) -> [Sample] {
            var generator = SampleGenerator(seed: 5)
            let arrivals = generator.minuteArrivals(
                from: 1_763_000_000_000, count: count, firstLate: 11, lateEvery: 89)
            guard self == .constant else { return arrivals }
            return arrivals.map {
                Sample(
                    startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds,
                    value: 1)
            }
        }

        /// How many samples the streamed store gets in one batch first, as an import leaves them.
        var preloaded: Int { self == .constant ? 36_000 : 2_000 }
    }

    /// Whether `bytes`, a block, holds more bytes or samples than a tail does.
    private static func isLarge(_ bytes: [UInt8]) throws -> Bool {
        let count = try bytes.withUnsafeBytes { try BlockCodec.header($0) }.count
        return bytes.count > SampleStorage.tailBlockBytes + 64
            || count > SampleStorage.tailBlockSamples + 1
    }

    @Test(
        "one-sample commits rewrite a tail block of a leaf page's size, folded back as it grows",
        arguments: Shape.allCases)
    func oneSampleCommitsRewriteATail(shape: Shape) async throws {
        let arrivals = shape.arrivals(count: shape.preloaded + 4_000)
        let streamedDirectory = try TemporaryDirectory()
        let batchDirectory = try TemporaryDirectory()
        defer {
            streamedDirectory.remove()
            batchDirectory.remove()
        }
        let streamed = try TrendStore(directory: streamedDirectory.url, options: .unsyncedUTC)
        let batch = try TrendStore(directory: batchDirectory.url, options: .unsyncedUTC)
        // A grown block first, as an import leaves it.
        try await streamed.write(Array(arrivals.prefix(shape.preloaded)), to: "e", unit: "kcal")
        var before = try Self.blocks(of: "e", in: streamed)
        var largeRewrites = 0
        for sample in arrivals.dropFirst(shape.preloaded) {
            try await streamed.write([sample], to: "e", unit: "kcal")
            let after = try Self.blocks(of: "e", in: streamed)
            let written = after.filter { before[$0.key] != $0.value }
            #expect(!written.isEmpty)
            if try written.values.contains(where: Self.isLarge) { largeRewrites += 1 }
            before = after
        }
        // A large block is written only when a tail folds into it (about one commit in a
        // few hundred here) or a late sample lands before the tail begins.
        #expect(largeRewrites <= 4_000 / 50, "\(largeRewrites) commits rewrote a large block")
        try await batch.write(arrivals, to: "e", unit: "kcal")
        let expected = arrivals.sorted { $0.startMilliseconds < $1.startMilliseconds }
        #expect(
            bitIdentical(
                try streamed.samples(of: "e", from: .distantPast, to: .distantFuture), expected))
        // Blocks still fill their pages: about as many, and bytes, as one batch's (but for
        // the tails).
        let batchBlocks = try Self.blocks(of: "e", in: batch)
        #expect(before.count <= batchBlocks.count + 2, "\(before.count) blocks")
        #expect(
            Double(before.values.map(\.count).reduce(0, +))
                <= Double(batchBlocks.values.map(\.count).reduce(0, +)) * 1.10
                + Double(2 * SampleStorage.tailBlockBytes))
        for day in Set(expected.map { $0.startMilliseconds / 86_400_000 }) {
            let date = LocalDate(dayNumber: day)
            #expect(
                try streamed.dayCurve(of: "e", on: date).cumulative
                    == (try batch.dayCurve(of: "e", on: date).cumulative))
        }
        #expect(try await streamed.verify().problems.isEmpty)
    }
}
