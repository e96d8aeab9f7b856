import Foundation

/// Finds given bytes in a buffer eight at a time with the borrow tests of "Bit Twiddling
/// Hacks": subtracting `n…n` from a word borrows into the high bit of each byte below `n`
/// (a byte equal to `c` is a zero byte of `word ^ c…c`); the lowest such byte is found
/// exactly (higher ones may be false positives, never lower).
enum ByteSearch {
    /// The offset of the first byte in `base[from..<to]` equal to `a`, `b` or `c`, or `nil`.
    @inline(__always)
    static func first(
        of a: UInt8, _ b: UInt8, _ c: UInt8, in base: UnsafeRawPointer, from: Int, to: Int
    ) -> Int? {
        var index = from
        while index + 8 <= to {
            let word = UInt64(
                littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let found =
                zeroBytes(word ^ spread(a)) | zeroBytes(word ^ spread(b))
                | zeroBytes(word ^ spread(c))
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < to {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == a || byte == b || byte == c { return index }
            index += 1
        }
        return nil
    }

    /// The offset of the first byte in `base[from..<to]` equal to `byte`, or `nil`.
    @inline(__always)
    static func first(of byte: UInt8, in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        first(of: byte, byte, byte, in: base, from: from, to: to)
    }

    /// The offset of the first byte in `base[from..<to]` below `limit` (at most 0x80), or `nil`.
    @inline(__always)
    static func first(below limit: UInt8, in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        var index = from
        while index + 8 <= to {
            let word = UInt64(
                littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let found = (word &- spread(limit)) & ~word & 0x8080_8080_8080_8080
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < to {
            if base.load(fromByteOffset: index, as: UInt8.self) < limit { return index }
            index += 1
        }
        return nil
    }

    /// Whether the bytes at `pointer` begin with `needle` (the caller makes sure `needle.count`
    /// bytes are there).
    @inline(__always)
    static func matches(_ needle: [UInt8], at pointer: UnsafeRawPointer) -> Bool {
        needle.withUnsafeBytes { wanted in
            guard let wantedBase = wanted.baseAddress else { return true }
            return memcmp(pointer, wantedBase, wanted.count) == 0
        }
    }

    /// `byte` in every byte of a word.
    @inline(__always)
    private static func spread(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// The high bit of each zero byte of `word` (exact for the lowest).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- spread(1)) & ~word & 0x8080_8080_8080_8080
    }
}
