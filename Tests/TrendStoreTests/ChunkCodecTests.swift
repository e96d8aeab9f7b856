import Testing
import TestSupport
@testable import TrendStore

/// Sorts and de-duplicates samples the way a stored chunk holds them.
private func normalised(_ samples: [Sample]) throws -> [Sample] {
    try SampleBatch(series: "test", samples: samples).samples
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
        let samples = try normalised(generator.minuteSamples(from: 1_700_000_000_123, count: 5_000))
        #expect(bitEqual(try roundTrip(samples), samples))
    }

    @Test("round-trips awkward samples", arguments: 0..<20)
    func roundTripsAwkwardSamples(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let samples = try normalised(
            generator.awkwardSamples(in: -86_400_000..<86_400_000, count: 2_000))
        #expect(bitEqual(try roundTrip(samples), samples))
    }

    @Test(
        "round-trips extremes: far past and future, zero length, huge and tiny values, shared starts"
    )
    func roundTripsExtremes() throws {
        let limit = TimeGrid.instantLimit
        let samples = try normalised([
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
        let samples = try normalised(generator.minuteSamples(from: 0, count: 1_000))
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
