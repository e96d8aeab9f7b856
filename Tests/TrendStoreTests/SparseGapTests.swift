import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
@testable import TrendStore

/// Block layout 2's sparse gap column: chosen when most gaps are 0, read back exactly, and
/// refused when its bitmap and count disagree or a block of layout 1 claims it.
@Suite("Sparse gap column")
struct SparseGapTests {
    /// Watch-like minute samples: seven in ten start where the one before ended, the others
    /// up to six seconds later.
    static func watchLike(count: Int, seed: UInt64) -> [Sample] {
        var random = SeededGenerator(seed: seed)
        var start: Int64 = 1_780_000_000_000
        return (0..<count).map { _ in
            if Int.random(in: 0..<10, using: &random) >= 7 {
                start += Int64.random(in: 1...6_000, using: &random)
            }
            let end = start + 57_000 + Int64.random(in: -1_500...1_500, using: &random)
            defer { start = end }
            return Sample(
                startMilliseconds: start, endMilliseconds: end,
                value: Double(Int.random(in: 0...20_000, using: &random)) / 10_000)
        }
    }

    static func decoded(_ bytes: [UInt8]) throws -> [Sample] {
        var samples: [Sample] = []
        try bytes.withUnsafeBytes {
            try BlockCodec.decode($0, zlib: ZlibCodec(), appendingTo: &samples)
        }
        return samples
    }

    @Test("mostly-zero gaps are stored sparse and read back bit for bit", arguments: 0..<5)
    func roundTrips(seed: UInt64) throws {
        let samples = Self.watchLike(count: 3_000, seed: seed)
        let bytes = try BlockCodec.encode(samples[...], zlib: ZlibCodec())
        let header = try bytes.withUnsafeBytes { try BlockCodec.header($0) }
        #expect(header.layout == 2 && header.size == 76)
        #expect(header.layouts.gap.isSparse, "\(header.layouts.gap)")
        // The header counts the gaps that are not 0, counted here from the samples.
        let nonzero = zip(samples.dropFirst(), samples).filter {
            $0.0.startMilliseconds != $0.1.endMilliseconds
        }.count
        #expect(header.layouts.gap.nonzero == nonzero)
        #expect(bitIdentical(try Self.decoded(bytes), samples))
    }

    @Test("a bitmap that marks another number of gaps than the header counts is refused")
    func refusesDisagreeingBitmap() throws {
        let samples = Self.watchLike(count: 500, seed: 9)
        let zlib = ZlibCodec()
        let good = try BlockCodec.encode(samples[...], zlib: zlib)
        let header = try good.withUnsafeBytes { try BlockCodec.header($0) }
        #expect(header.layouts.gap.isSparse)
        // The payload with one more gap marked, deflated again under a right checksum.
        var payload = [UInt8](repeating: 0, count: header.payloadLength)
        try good.withUnsafeBytes { block in
            try payload.withUnsafeMutableBytes {
                try zlib.inflate(UnsafeRawBufferPointer(rebasing: block[76...]), into: $0)
            }
        }
        let bitmap = header.gapOffset
        let unmarked = (0..<samples.count).first { payload[bitmap + $0 / 8] >> ($0 % 8) & 1 == 0 }!
        payload[bitmap + unmarked / 8] |= 1 << (unmarked % 8)
        var damaged = Array(good[..<76])
        try payload.withUnsafeBytes { try zlib.deflate($0, appendingTo: &damaged) }
        let crc = damaged.withUnsafeBytes(BlockCodec.checksum(of:))
        withUnsafeBytes(of: crc.littleEndian) { damaged.replaceSubrange(72..<76, with: $0) }
        #expect(throws: BlockDamage.self) { try Self.decoded(damaged) }
        #expect(bitIdentical(try Self.decoded(good), samples))
    }

    @Test("a block of layout 1 whose gap column claims to be sparse is refused")
    func layoutOneCannotBeSparse() throws {
        let samples = Self.watchLike(count: 500, seed: 4)
        var bytes = try BlockCodec.encode(samples[...], zlib: ZlibCodec())
        bytes[0] = 1
        #expect {
            try bytes.withUnsafeBytes { _ = try BlockCodec.header($0) }
        } throws: { "\($0)" == "invalid column layouts" }
    }
}
