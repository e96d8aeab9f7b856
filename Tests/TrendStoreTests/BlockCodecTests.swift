import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// Sorts and de-duplicates samples the way a stored block holds them (the last of an
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

private func roundTrip(_ samples: [Sample], segmented: Bool = true) throws -> [Sample] {
    let zlib = ZlibCodec()
    let bytes = try BlockCodec.encode(samples[...], zlib: zlib, segmented: segmented)
    var decoded: [Sample] = []
    try bytes.withUnsafeBytes { try BlockCodec.decode($0, zlib: zlib, appendingTo: &decoded) }
    return decoded
}

/// Whether `samples` come back bit for bit from a block, its payload deflated in one
/// segment per column part and in one piece (a tail block's).
private func roundTrips(_ samples: [Sample]) throws -> Bool {
    try bitIdentical(try roundTrip(samples), samples)
        && bitIdentical(try roundTrip(samples, segmented: false), samples)
}

/// Expects `bytes` refused as a damaged block, with nothing decoded from them.
private func expectRefused(_ bytes: [UInt8], zlib: ZlibCodec) {
    var decoded: [Sample] = []
    #expect(throws: BlockDamage.self) {
        try bytes.withUnsafeBytes { try BlockCodec.decode($0, zlib: zlib, appendingTo: &decoded) }
    }
    #expect(decoded.count == 0)
}

@Suite("Block codec")
struct BlockCodecTests {
    @Test("round-trips random minute data", arguments: 0..<20)
    func roundTripsMinuteData(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let samples = normalised(generator.minuteSamples(from: 1_700_000_000_123, count: 5_000))
        #expect(try roundTrips(samples))
    }

    @Test("round-trips awkward samples", arguments: 0..<20)
    func roundTripsAwkwardSamples(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let samples = normalised(
            generator.awkwardSamples(in: -86_400_000..<86_400_000, count: 2_000))
        #expect(try roundTrips(samples))
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
        #expect(try roundTrips(samples))
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
        #expect(try roundTrips(samples))
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
        #expect(try roundTrips(stored))
    }

    @Test("decimal values are stored as scaled integers, full-precision doubles as bits")
    func chooseValueEncoding() throws {
        let zlib = ZlibCodec()
        func header(_ values: [Double]) throws -> BlockCodec.Header {
            let samples = values.enumerated().map {
                Sample(
                    startMilliseconds: Int64($0.offset), endMilliseconds: Int64($0.offset),
                    value: $0.element)
            }
            return try BlockCodec.encode(samples[...], zlib: zlib).withUnsafeBytes {
                try BlockCodec.header($0)
            }
        }
        let decimal = try header([0.351, 1.25, 7])
        #expect(decimal.values.exponent == 3 && decimal.exceptionCount == 0)
        #expect(decimal.values.scheme == .decimalDeltas || decimal.values.scheme == .decimalOffsets)
        // Trailing zeros are divided out by the factor: 1.5e6 and 2e6 need no exponent.
        let large = try header([1_500_000, 2_000_000, 2_500_000])
        #expect(large.values.exponent == 0 && large.values.factor == 5)
        // One full-precision double among decimals is an exception, not a reason for raw bits.
        let mixed = try header(Array(repeating: 4.2, count: 99) + [1.0 / 3.0])
        #expect(mixed.values.exponent == 1 && mixed.exceptionCount == 1, "\(mixed)")
        let binary = try header((1...100).map { 1.0 / Double($0) + .pi })
        #expect(binary.values.scheme == .xorBits || binary.values.scheme == .rawBits)
    }

    @Test("a column of zeros is coded as the full search codes it, without the search")
    func zeroValues() throws {
        for count in [1, 2, 31, 32, 33, 1_440, 17_280] {
            let zeros = [Double](repeating: 0, count: count)
            let shortcut = ValueCoding.encode(zeros)
            let searched = ValueCoding.searched(zeros)
            #expect(shortcut.parameters == searched.parameters)
            #expect(shortcut.layout == searched.layout)
            #expect(shortcut.column == searched.column)
            #expect(shortcut.exceptionPositions.isEmpty && searched.exceptionPositions.isEmpty)
        }
        // -0.0 is not +0.0: it is an exception of the decimal scheme, found by the search.
        var withNegativeZero = [Double](repeating: 0, count: 10)
        withNegativeZero[4] = -0.0
        #expect(ValueCoding.encode(withNegativeZero).exceptionPositions == [4])
    }

    @Test(
        "random decimals of 0 to 17 digits at any scale, and mixes of magnitudes, round-trip",
        arguments: 0..<100)
    func randomDecimals(seed: Int) throws {
        var generator = SampleGenerator(seed: seed)
        let count = Int(generator.integer(in: 1...4_000))
        let digits = Int(generator.integer(in: 0...17))
        let mixMagnitudes = generator.integer(in: 0...1) == 1
        var start: Int64 = -1_000_000
        let samples = (0..<count).map { _ -> Sample in
            start += generator.integer(in: 0...70_000)
            let mantissa = Double(generator.integer(in: -999_999_999_999_999...999_999_999_999_999))
            let places = mixMagnitudes ? Int(generator.integer(in: 0...17)) : digits
            let text = String(format: "%.\(places)f", mantissa / pow(10, Double(places + 2)))
            let value = Double(text) ?? 0
            return Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: value)
        }
        let stored = normalised(samples)
        #expect(try roundTrips(stored))
    }

    @Test("rejects truncated, flipped and foreign bytes")
    func rejectsDamage() throws {
        var generator = SampleGenerator(seed: 7)
        let samples = normalised(generator.minuteSamples(from: 0, count: 1_000))
        let zlib = ZlibCodec()
        let good = try BlockCodec.encode(samples[...], zlib: zlib)
        var cases: [[UInt8]] = [
            [0x01, 0x02], Array(good.prefix(good.count - 5)), Array(repeating: 0x5A, count: 400),
        ]
        for offset in [0, 1, 2, 5, 20, 30, 45, 60, 69, good.count / 2, good.count - 1] {
            var flipped = good
            flipped[offset] ^= 0x10
            cases.append(flipped)
        }
        for bytes in cases { expectRefused(bytes, zlib: zlib) }
    }

    @Test("a stream whose zlib header or trailer is wrong is refused, even under a right checksum")
    func refusesForeignStreamUnderRightChecksum() throws {
        var generator = SampleGenerator(seed: 8)
        let samples = normalised(generator.minuteSamples(from: 0, count: 500))
        let zlib = ZlibCodec()
        let good = try BlockCodec.encode(samples[...], zlib: zlib)
        let headerSize = BlockCodec.headerSize
        /// `bytes` with the block checksum the codec would give them.
        func resealed(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            let crc = bytes.withUnsafeBytes(BlockCodec.checksum(of:))
            let at = BlockCodec.checksumOffset(layout: BlockCodec.version)
            withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(at..<(at + 4), with: $0) }
            return bytes
        }
        var decodedGood: [Sample] = []
        try resealed(good).withUnsafeBytes {
            try BlockCodec.decode($0, zlib: zlib, appendingTo: &decodedGood)
        }
        #expect(bitIdentical(decodedGood, samples))
        var notDeflate = good
        notDeflate[headerSize] = 0x79  // compression method 9
        var presetDictionary = good
        presetDictionary[headerSize + 1] |= 0x20
        // Keep the header's check bits right, so only the dictionary flag is wrong.
        let header = UInt16(presetDictionary[headerSize]) << 8
        presetDictionary[headerSize + 1] &= 0xE0
        presetDictionary[headerSize + 1] |=
            UInt8(31 - (header | UInt16(presetDictionary[headerSize + 1])) % 31) % 31
        let noTrailer = Array(good.dropLast(4))
        for bytes in [notDeflate, presetDictionary, noTrailer].map(resealed) {
            expectRefused(bytes, zlib: zlib)
        }
    }

    @Test(
        "evenly spread columns are bit-packed (near their entropy, under the packed width's bytes) and a constant one takes no bytes"
    )
    func packsEvenlySpreadColumns() throws {
        var generator = SampleGenerator(seed: 3)
        // Minute energy of 3 decimals, uniform over 0…0.399: nine bits a value.
        let samples = (0..<10_000).map { index -> Sample in
            let start = 1_700_000_000_000 + Int64(index) * 60_000
            return Sample(
                startMilliseconds: start, endMilliseconds: start + 60_000,
                value: Double(generator.integer(in: 0...399)) / 1_000)
        }
        let zlib = ZlibCodec()
        let packed = try BlockCodec.encode(samples[...], zlib: zlib)
        let header = try packed.withUnsafeBytes { try BlockCodec.header($0) }
        #expect(packed[0] == BlockCodec.version)
        #expect(header.layouts.value == .packed(bits: 9), "\(header.layouts)")
        #expect(
            header.layouts.duration == .packed(bits: 0) && header.layouts.gap == .packed(bits: 0))
        // The values' entropy is log2(400) = 8.64 bits: 10,800 bytes at the least; nine bits
        // each are 11,250 bytes, which deflate's framing may pass by a little.
        #expect(packed.count >= 10_800 && packed.count <= 11_250 + BlockCodec.headerSize + 64)
        #expect(try roundTrips(samples))
    }

    @Test(
        "a header claiming more samples than its compressed bytes can hold is refused before inflating"
    )
    func refusesImpossibleExpansion() throws {
        let samples = (0..<100).map {
            Sample(
                startMilliseconds: Int64($0) * 60_000, endMilliseconds: Int64($0) * 60_000, value: 1
            )
        }
        let zlib = ZlibCodec()
        var bytes = try BlockCodec.encode(samples[...], zlib: zlib)
        // Two billion samples of eight value bytes: 16 GB from a few dozen.
        let count: UInt32 = 2_000_000_000
        bytes[4] = ColumnLayout.packed(bits: 0).headerByte
        bytes[5] = ColumnLayout.packed(bits: 0).headerByte
        bytes[6] = 2  // two byte planes: 4 GB, the most the length field holds
        withUnsafeBytes(of: count.littleEndian) { bytes.replaceSubrange(8..<12, with: $0) }
        withUnsafeBytes(of: UInt32(0).littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
        withUnsafeBytes(of: (count * 2).littleEndian) { bytes.replaceSubrange(64..<68, with: $0) }
        // No gap is counted as not 0: the gap column is no longer sparse.
        withUnsafeBytes(of: UInt32(0).littleEndian) { bytes.replaceSubrange(68..<72, with: $0) }
        #expect {
            try bytes.withUnsafeBytes { _ = try BlockCodec.header($0) }
        } throws: { "\($0)".contains("cannot inflate to 4000000000") }
    }
}
