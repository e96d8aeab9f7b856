import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
@testable import TrendStore

/// Deflating each part of a block with matches, by Huffman codes alone or by runs, chosen
/// from the part's bytes, checked against what zlib really makes of the part each way.
@Suite("Deflate strategy per part")
struct DeflateStrategyTests {
    /// `bytes` deflated as one segment the way `strategy` says.
    static func deflated(
        _ bytes: [UInt8], strategy: ZlibCodec.Strategy, zlib: ZlibCodec = ZlibCodec()
    ) throws -> [UInt8] {
        var out: [UInt8] = []
        try bytes.withUnsafeBytes {
            try zlib.deflate(
                $0, segments: [ZlibCodec.Segment(length: bytes.count, strategy: strategy)],
                appendingTo: &out)
        }
        return out
    }

    static let strategies: [ZlibCodec.Strategy] = [.matches, .huffmanOnly, .runs]

    /// Bytes of a few kinds a block's parts hold: the low plane of a gap that is 0 seven times
    /// in ten, jittering durations' low bytes, a nearly constant plane, the top plane of a
    /// column whose rare outliers alone reach it, a plane of deltas mostly 0 or 1 (short runs
    /// of 0, which runs code in more than Huffman codes alone), a plane of runs, a repeating
    /// pattern and bits.
    static func parts(seed: UInt64) -> [(name: String, bytes: [UInt8])] {
        var random = SeededGenerator(seed: seed)
        let count = 4_000
        func bytes(_ make: (Int) -> Int) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: make($0)) }
        }
        return [
            (
                "mostly zero gaps",
                bytes { _ in
                    Int.random(in: 0..<10, using: &random) < 7
                        ? 0 : Int.random(in: 0..<256, using: &random)
                }
            ),
            ("jitter", bytes { _ in 128 + Int.random(in: -40...40, using: &random) }),
            (
                "geometric",
                bytes { _ in Int(-log2(Double.random(in: 0.0001..<1, using: &random)) * 3) }
            ),
            (
                "nearly constant",
                bytes { _ in Int.random(in: 0..<200, using: &random) == 0 ? 1 : 0 }
            ),
            (
                "rare outliers",
                bytes { _ in
                    Int.random(in: 0..<100, using: &random) < 3
                        ? Int.random(in: 1..<256, using: &random) : 0
                }
            ),
            (
                "mostly 0 or 1",
                bytes { _ in
                    let draw = Int.random(in: 0..<100, using: &random)
                    return draw < 80 ? 0 : draw < 97 ? 1 : Int.random(in: 2..<6, using: &random)
                }
            ),
            ("runs", bytes { $0 / 97 % 5 }),
            ("pattern", bytes { [3, 1, 4, 1, 5, 9, 2, 6][$0 % 8] }),
            ("uniform", bytes { _ in Int.random(in: 0..<256, using: &random) }),
        ]
    }

    @Test(
        "each part is deflated the way really smallest for it, within 3% or 24 bytes",
        arguments: 0..<4)
    func choosesTheSmallestWay(seed: UInt64) throws {
        for (name, bytes) in Self.parts(seed: seed) {
            let histogram = bytes.withUnsafeBytes { DeflateEstimate.histogram(of: $0) }
            let chosen = bytes.withUnsafeBytes { DeflateEstimate.strategy(for: $0) }
            let sizes = try Dictionary(
                uniqueKeysWithValues: Self.strategies.map {
                    ($0, try Self.deflated(bytes, strategy: $0).count)
                })
            let chosenSize = sizes[chosen]!
            let smallest = sizes.values.min()!
            #expect(
                Double(chosenSize) <= max(Double(smallest) * 1.03, Double(smallest + 24)),
                "\(name): chose \(chosen) at \(chosenSize), the sizes \(sizes)")
            // Without matches the estimate is near what zlib makes (its header and trailer
            // aside): the histogram's Huffman code, or the exact parse of runs.
            let huffman = DeflateEstimate.bits(histogram[...], count: bytes.count)
            let estimate: Double? =
                switch chosen {
                case .matches: nil
                case .huffmanOnly: huffman / 8
                case .runs:
                    bytes.withUnsafeBytes {
                        DeflateEstimate.runsBits($0, histogram: histogram[...], huffman: huffman)
                            / 8
                    }
                }
            if let estimate {
                #expect(
                    abs(estimate - Double(chosenSize - 6)) <= max(0.12 * Double(chosenSize), 40),
                    "\(name): estimated \(estimate) bytes, made \(chosenSize)")
            }
        }
    }

    @Test(
        "noisy planes go by Huffman codes alone, runs and rare outliers by runs, patterns with matches"
    )
    func choicesOnKnownShapes() {
        let choices = Dictionary(
            uniqueKeysWithValues: Self.parts(seed: 9).map { part in
                (part.name, part.bytes.withUnsafeBytes { DeflateEstimate.strategy(for: $0) })
            })
        #expect(choices["mostly zero gaps"] == .huffmanOnly)
        #expect(choices["geometric"] == .huffmanOnly)
        #expect(choices["mostly 0 or 1"] == .huffmanOnly)
        #expect(choices["rare outliers"] == .runs)
        #expect(choices["nearly constant"] == .runs)
        #expect(choices["runs"] == .runs)
        #expect(choices["pattern"] == .matches)
    }

    @Test("runs are estimated as zlib parses them, and code rare outliers smallest")
    func runsEstimateMatchesZlib() throws {
        for seed in UInt64(0)..<4 {
            let bytes = Self.parts(seed: seed).first { $0.name == "rare outliers" }!.bytes
            let histogram = bytes.withUnsafeBytes { DeflateEstimate.histogram(of: $0) }
            let estimate = bytes.withUnsafeBytes {
                DeflateEstimate.runsBits(
                    $0, histogram: histogram[...],
                    huffman: DeflateEstimate.bits(histogram[...], count: bytes.count)) / 8
            }
            let runs = try Self.deflated(bytes, strategy: .runs).count
            #expect(abs(estimate - Double(runs - 6)) <= 0.05 * Double(runs), "\(estimate), \(runs)")
            // Three percent of outliers among zeros: runs take 0.75 bits a byte, Huffman codes
            // alone more than 1 (a bit a symbol at least), level 1's matches about 1.
            #expect(
                try Double(runs) < 0.6 * Double(Self.deflated(bytes, strategy: .huffmanOnly).count))
            #expect(try Double(runs) < 0.8 * Double(Self.deflated(bytes, strategy: .matches).count))
        }
    }

    @Test(
        "a stream mixing the three ways inflates back, and the next stream starts with matches again"
    )
    func mixedStreamRoundTrips() throws {
        let parts = Self.parts(seed: 5)
        let input = parts.flatMap(\.bytes)
        let segments = parts.enumerated().map {
            ZlibCodec.Segment(
                length: $0.element.bytes.count,
                strategy: Self.strategies[$0.offset % Self.strategies.count])
        }
        let zlib = ZlibCodec()
        var stream: [UInt8] = []
        try input.withUnsafeBytes { try zlib.deflate($0, segments: segments, appendingTo: &stream) }
        var back = [UInt8](repeating: 0, count: input.count)
        try stream.withUnsafeBytes { compressed in
            try back.withUnsafeMutableBytes { try zlib.inflate(compressed, into: $0) }
        }
        #expect(back == input)
        // The same codec's next stream, with the default segments, is what a fresh codec
        // makes: the last segment's way (runs) is not left for it.
        let runs = parts.first { $0.name == "runs" }!.bytes
        var again: [UInt8] = []
        var fresh: [UInt8] = []
        try runs.withUnsafeBytes {
            try zlib.deflate($0, appendingTo: &again)
            try ZlibCodec().deflate($0, appendingTo: &fresh)
        }
        #expect(again == fresh)
        #expect(fresh.count < runs.count / 20)
    }
}
