import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
@testable import TrendStore

/// Deflating each part of a block with matches or by Huffman codes alone, chosen from the
/// part's byte histogram, checked against what zlib really makes of the part each way.
@Suite("Deflate strategy per part")
struct DeflateStrategyTests {
    /// `bytes` deflated as one segment, with matches or not.
    static func deflated(_ bytes: [UInt8], huffmanOnly: Bool, zlib: ZlibCodec = ZlibCodec())
        throws -> [UInt8]
    {
        var out: [UInt8] = []
        try bytes.withUnsafeBytes {
            try zlib.deflate(
                $0, segments: [ZlibCodec.Segment(length: bytes.count, huffmanOnly: huffmanOnly)],
                appendingTo: &out)
        }
        return out
    }

    /// Bytes of a few kinds a block's parts hold: the low plane of a gap that is 0 seven times
    /// in ten, jittering durations' low bytes, a nearly constant plane, a plane of runs, a
    /// repeating pattern and bits.
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
            ("runs", bytes { $0 / 97 % 5 }),
            ("pattern", bytes { [3, 1, 4, 1, 5, 9, 2, 6][$0 % 8] }),
            ("uniform", bytes { _ in Int.random(in: 0..<256, using: &random) }),
        ]
    }

    @Test(
        "each part is deflated the way really smaller for it, within 3% or 24 bytes",
        arguments: 0..<4)
    func choosesTheSmallerWay(seed: UInt64) throws {
        for (name, bytes) in Self.parts(seed: seed) {
            let histogram = bytes.withUnsafeBytes { DeflateEstimate.histogram(of: $0) }
            let chosen = bytes.withUnsafeBytes { DeflateEstimate.prefersHuffmanOnly($0) }
            let chosenSize = try Self.deflated(bytes, huffmanOnly: chosen).count
            let otherSize = try Self.deflated(bytes, huffmanOnly: !chosen).count
            #expect(
                Double(chosenSize) <= max(Double(otherSize) * 1.03, Double(otherSize + 24)),
                "\(name): chose \(chosen ? "Huffman only" : "matches") at \(chosenSize), the other \(otherSize)"
            )
            // The estimate is near what the chosen way makes (zlib's header and trailer aside)
            // where no runs or patterns shrink it below what a histogram sees.
            let estimate = DeflateEstimate.bits(histogram[...], count: bytes.count) / 8
            #expect(
                !chosen
                    || abs(estimate - Double(chosenSize - 6)) <= max(0.12 * Double(chosenSize), 40),
                "\(name): estimated \(estimate) bytes, made \(chosenSize)")
        }
    }

    @Test("noisy planes go without matches, runs and patterns with them")
    func choicesOnKnownShapes() {
        let choices = Dictionary(
            uniqueKeysWithValues: Self.parts(seed: 9).map { part in
                (part.name, part.bytes.withUnsafeBytes { DeflateEstimate.prefersHuffmanOnly($0) })
            })
        #expect(choices["mostly zero gaps"] == true)
        #expect(choices["geometric"] == true)
        #expect(choices["nearly constant"] == false)
        #expect(choices["runs"] == false)
        #expect(choices["pattern"] == false)
    }

    @Test("a stream mixing both ways inflates back, and the next stream starts with matches again")
    func mixedStreamRoundTrips() throws {
        let parts = Self.parts(seed: 5)
        let input = parts.flatMap(\.bytes)
        let segments = parts.enumerated().map {
            ZlibCodec.Segment(length: $0.element.bytes.count, huffmanOnly: $0.offset % 2 == 0)
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
        // makes: a run-heavy part is not left coded by Huffman codes alone.
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
