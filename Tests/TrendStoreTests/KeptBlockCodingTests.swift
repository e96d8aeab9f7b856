import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// A block rewritten with a few more samples keeps the coding chosen for it (duration
/// reference, value parameters, column layouts) when that coding holds them, instead of
/// choosing again from estimates over every sample: a one-sample commit's encoding.
@Suite("Kept block coding")
struct KeptBlockCodingTests {
    /// A codec per call: one holds its zlib streams, and the tests run in parallel.
    private static var zlib: ZlibCodec { ZlibCodec() }

    private static func header(_ bytes: [UInt8]) throws -> BlockCodec.Header {
        try bytes.withUnsafeBytes { try BlockCodec.header($0) }
    }

    private static func decoded(_ bytes: [UInt8]) throws -> [Sample] {
        var samples: [Sample] = []
        try bytes.withUnsafeBytes { try BlockCodec.decode($0, zlib: zlib, appendingTo: &samples) }
        return samples
    }

    @Test(
        "a block encoded keeping another's coding decodes to its samples, whatever they are",
        arguments: 0..<30)
    func keptCodingRoundTrips(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let base = generator.minuteSamples(
            from: 1_700_000_000_000, count: Int(generator.integer(in: 1...3_000)))
        let end = base.last?.endMilliseconds ?? 0
        // After the base: more of the same, or samples of any duration, gap and value.
        let more =
            seed % 3 == 0
            ? generator.awkwardSamples(in: end..<(end + 86_400_000), count: 40)
            : generator.minuteSamples(from: end, count: Int(generator.integer(in: 1...50)))
        var grown = base
        for sample in more.sorted(by: { $0.startMilliseconds < $1.startMilliseconds })
        where sample.startMilliseconds > grown[grown.count - 1].startMilliseconds {
            grown.append(sample)
        }
        let previous = try Self.header(try BlockCodec.encode(base[...], zlib: Self.zlib))
        let kept = try BlockCodec.encode(grown[...], zlib: Self.zlib, keeping: previous)
        #expect(bitIdentical(try Self.decoded(kept), grown))
        #expect(try Self.header(kept).count == grown.count)
        // Within one doubling of the samples it was chosen from (as the writer keeps it), a
        // kept coding of data of the same shape costs about what a new choice would.
        if seed % 3 != 0, base.count.leadingZeroBitCount == grown.count.leadingZeroBitCount {
            let fresh = try BlockCodec.encode(grown[...], zlib: Self.zlib)
            #expect(Double(kept.count) <= Double(fresh.count) * 1.05 + 16)
        }
    }

    @Test("a coding that holds the samples is kept; one that cannot is chosen anew")
    func keptOnlyWhenItHolds() throws {
        // Gaps of up to a minute and values up to 1000.000: wide columns.
        let wide = (0..<500).map { index in
            let start = Int64(index) * 120_000 + Int64(index % 11) * 5_000
            return Sample(
                startMilliseconds: start, endMilliseconds: start + 60_000,
                value: Double((index * 7_919) % 1_000_000) / 1_000)
        }
        let previous = try Self.header(try BlockCodec.encode(wide[...], zlib: Self.zlib))
        // Contiguous, the same duration, small values: narrower columns than `wide`'s.
        let narrow = (0..<300).map { index in
            Sample(
                startMilliseconds: Int64(index) * 60_000,
                endMilliseconds: Int64(index) * 60_000 + 60_000, value: Double(index % 7) * 0.125)
        }
        let fresh = try Self.header(try BlockCodec.encode(narrow[...], zlib: Self.zlib))
        let keptBytes = try BlockCodec.encode(narrow[...], zlib: Self.zlib, keeping: previous)
        let kept = try Self.header(keptBytes)
        #expect(fresh.layouts.gap != previous.layouts.gap)
        #expect(kept.layouts.duration == previous.layouts.duration)
        // The same layout (a sparse one counts the new samples' gaps that are not 0).
        #expect(kept.layouts.gap.headerByte == previous.layouts.gap.headerByte)
        #expect(kept.layouts.value == previous.layouts.value)
        #expect(kept.values.scheme == previous.values.scheme)
        #expect(kept.values.exponent == previous.values.exponent)
        #expect(bitIdentical(try Self.decoded(keptBytes), narrow))
        // `narrow`'s coding has gaps of no bits: the wide samples cannot be held by it.
        let chosenBytes = try BlockCodec.encode(wide[...], zlib: Self.zlib, keeping: fresh)
        #expect(try Self.header(chosenBytes).layouts.gap == previous.layouts.gap)
        #expect(bitIdentical(try Self.decoded(chosenBytes), wide))
    }

    @Test("samples committed one at a time read back as one batch of them, in about its bytes")
    func streamedAgainstBatch() async throws {
        var generator = SampleGenerator(seed: 11)
        let arrivals = generator.minuteArrivals(
            from: 1_763_000_000_000, count: 1_500, firstLate: 7, lateEvery: 97)
        let streamedDirectory = try TemporaryDirectory()
        let batchDirectory = try TemporaryDirectory()
        defer {
            streamedDirectory.remove()
            batchDirectory.remove()
        }
        let streamed = try TrendStore(directory: streamedDirectory.url, options: .unsyncedUTC)
        let batch = try TrendStore(directory: batchDirectory.url, options: .unsyncedUTC)
        for sample in arrivals { try await streamed.write([sample], to: "e", unit: "kcal") }
        try await batch.write(arrivals, to: "e", unit: "kcal")
        let expected = arrivals.sorted { $0.startMilliseconds < $1.startMilliseconds }
        #expect(
            bitIdentical(
                try streamed.samples(of: "e", from: .distantPast, to: .distantFuture), expected))
        #expect(
            bitIdentical(
                try batch.samples(of: "e", from: .distantPast, to: .distantFuture), expected))
        let (streamedBytes, batchBytes) = (
            try streamed.footprint().sampleBytes, try batch.footprint().sampleBytes
        )
        #expect(Double(streamedBytes) <= Double(batchBytes) * 1.10)
    }
}
