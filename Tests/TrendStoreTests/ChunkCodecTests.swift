import Testing
import TestSupport
@testable import TrendStore

/// Sorts and de-duplicates samples the way a stored chunk holds them (the last of an
/// identity wins), without the store's value and time rules: the codec takes any sample.
private func normalised(_ samples: [Sample]) -> [Sample] {
    var unique: [Sample] = []
    for sample in samples.enumerated().sorted(by: {
        ($0.element.startMilliseconds, $0.element.endMilliseconds, $0.offset)
            < ($1.element.startMilliseconds, $1.element.endMilliseconds, $1.offset)
    }).map(\.element) {
        if let last = unique.last, last.startMilliseconds == sample.startMilliseconds,
            last.endMilliseconds == sample.endMilliseconds
        {
            unique[unique.count - 1] = sample
        } else {
            unique.append(sample)
        }
    }
    return unique
}

private func roundTrip(_ samples: [Sample]) throws -> [Sample] {
    let zlib = ZlibCodec()
    let bytes = try ChunkCodec.encode(samples[...], zlib: zlib)
    var decoded: [Sample] = []
    try bytes.withUnsafeBytes { try ChunkCodec.decode($0, zlib: zlib, appendingTo: &decoded) }
    return decoded
}

/// Bit-exact equality, so -0.0 and 0.0 differ and NaN payloads would show.
private func bitEqual(_ lhs: [Sample], _ rhs: [Sample]) -> Bool {
    lhs.count == rhs.count
        && zip(lhs, rhs).allSatisfy {
            $0.startMilliseconds == $1.startMilliseconds && $0.endMilliseconds == $1.endMilliseconds
                && $0.value.bitPattern == $1.value.bitPattern
        }
}

@Suite("Chunk codec")
struct ChunkCodecTests {
    @Test("round-trips random minute data", arguments: 0..<20)
    func roundTripsMinuteData(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let samples = normalised(generator.minuteSamples(from: 1_700_000_000_123, count: 5_000))
        #expect(bitEqual(try roundTrip(samples), samples))
    }

    @Test("round-trips awkward samples", arguments: 0..<20)
    func roundTripsAwkwardSamples(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let samples = normalised(
            generator.awkwardSamples(in: -86_400_000..<86_400_000, count: 2_000))
        #expect(bitEqual(try roundTrip(samples), samples))
    }

    @Test(
        "round-trips extremes: far past and future, zero length, huge and tiny values, shared starts"
    )
    func roundTripsExtremes() throws {
        let limit = SampleRules.instantRange.upperBound
        let samples = normalised([
            Sample(
                startMilliseconds: -limit, endMilliseconds: limit, value: .greatestFiniteMagnitude),
            Sample(
                startMilliseconds: -limit, endMilliseconds: -limit, value: -.greatestFiniteMagnitude
            ),
            Sample(startMilliseconds: 0, endMilliseconds: 0, value: .leastNonzeroMagnitude),
            Sample(startMilliseconds: 0, endMilliseconds: 1, value: -0.0),
            Sample(startMilliseconds: 0, endMilliseconds: 2, value: 1e-300),
            Sample(startMilliseconds: limit, endMilliseconds: limit, value: 42),
        ])
        #expect(bitEqual(try roundTrip(samples), samples))
    }

    @Test("a large integer and a 9-decimal value in one chunk round-trip (issue 13, item 1)")
    func mixedMagnitudes() throws {
        let samples = [
            Sample(
                startMilliseconds: 1_763_683_200_000, endMilliseconds: 1_763_683_200_000,
                value: 10_000_000),
            Sample(
                startMilliseconds: 1_763_683_260_000, endMilliseconds: 1_763_683_260_000,
                value: 0.123456789),
        ]
        #expect(bitEqual(try roundTrip(samples), samples))
    }

    @Test(
        "every finite double round-trips bit-identical, in any mix within one chunk",
        arguments: 0..<200)
    func anyValueMix(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let count = Int(generator.integer(in: 1...3_000))
        // Some chunks hold one kind of value, some a mix of all kinds.
        let uniform = generator.integer(in: 0...2) == 0
        let fixed = generator.anyFiniteValue()
        var start: Int64 = 1_700_000_000_000
        let samples = (0..<count).map { _ -> Sample in
            start += generator.integer(in: 0...120_000)
            let value =
                uniform
                ? (generator.integer(in: 0...3) == 0 ? generator.anyFiniteValue() : fixed)
                : generator.anyFiniteValue()
            return Sample(
                startMilliseconds: start,
                endMilliseconds: start + generator.integer(in: 0...60_000),
                value: value)
        }
        let stored = normalised(samples)
        #expect(bitEqual(try roundTrip(stored), stored))
    }

    @Test("decimal values are stored as scaled integers, others as raw bits")
    func chooseValueEncoding() throws {
        let zlib = ZlibCodec()
        let decimal = try ChunkCodec.encode(
            [Sample(startMilliseconds: 0, endMilliseconds: 1, value: 0.351)][...], zlib: zlib)
        let binary = try ChunkCodec.encode(
            [Sample(startMilliseconds: 0, endMilliseconds: 1, value: 1.0 / 3.0)][...], zlib: zlib)
        #expect(decimal.withUnsafeBytes { try? ChunkCodec.header($0).valueExponent } == 3)
        #expect(
            binary.withUnsafeBytes { try? ChunkCodec.header($0).valueExponent }
                == ChunkCodec.rawValuesMarker)
    }

    @Test("rejects truncated, flipped and foreign bytes")
    func rejectsDamage() throws {
        var generator = SampleGenerator(seed: 7)
        let samples = normalised(generator.minuteSamples(from: 0, count: 1_000))
        let zlib = ZlibCodec()
        let good = try ChunkCodec.encode(samples[...], zlib: zlib)
        var cases: [[UInt8]] = [
            [0x01, 0x02], Array(good.prefix(good.count - 5)), Array(repeating: 0x5A, count: 400),
        ]
        for offset in [0, 5, 20, 30, 45, good.count / 2, good.count - 1] {
            var flipped = good
            flipped[offset] ^= 0x10
            cases.append(flipped)
        }
        for bytes in cases {
            var decoded: [Sample] = []
            #expect(throws: ChunkCodec.Damage.self) {
                try bytes.withUnsafeBytes {
                    try ChunkCodec.decode($0, zlib: zlib, appendingTo: &decoded)
                }
            }
            #expect(decoded.isEmpty)
        }
    }
}
