/// Reads a run of ASCII digits eight at a time: one load, a test that all eight are digits,
/// and three multiply-add steps that pair digits, then pairs, then quads (the SWAR method
/// of simdjson and fast_float), instead of a multiply per digit.
enum Digits {
    /// The value of `bytes` when they are 1 to 18 ASCII digits, else `nil`.
    @inline(__always)
    static func value(of bytes: UnsafeRawBufferPointer) -> Int64? {
        let count = bytes.count
        guard count > 0, count <= 18, let base = bytes.baseAddress else { return nil }
        var value: UInt64 = 0
        var index = 0
        // The digits before the last eight (or all of them when fewer), one at a time.
        let head = count >= 8 ? count & 7 : count
        while index < head {
            let digit = base.load(fromByteOffset: index, as: UInt8.self) &- 48
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
            index += 1
        }
        while index < count {
            let word = UInt64(
                littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            guard areEightDigits(word) else { return nil }
            value = value &* 100_000_000 &+ eightDigits(word)
            index += 8
        }
        return Int64(value)
    }

    /// Whether every byte of `word` (first byte lowest) is an ASCII digit.
    @inline(__always)
    static func areEightDigits(_ word: UInt64) -> Bool {
        // High nibble 3, and adding 6 keeps it 3 (so the low nibble is at most 9).
        (word & 0xF0F0_F0F0_F0F0_F0F0)
            | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
            == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits, the first in the lowest byte.
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> UInt64 {
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let multiplier1: UInt64 = 100 + (1_000_000 << 32)
        let multiplier2: UInt64 = 1 + (10_000 << 32)
        var value = word &- 0x3030_3030_3030_3030
        value = (value &* 10) &+ (value >> 8)
        let low = (value & mask) &* multiplier1
        let high = ((value >> 16) & mask) &* multiplier2
        value = (low &+ high) >> 32
        return value
    }
}
