/// A little-endian bitmap of up to 128 bits read from a row: which slots (or boundaries)
/// hold something, and how many set bits come before a given one (the index of its entry
/// in a column that lists only the set ones).
struct SlotBitmap {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// An empty bitmap.
    init() {}

    /// The `bits` bits (65…128) stored from `offset` of `bytes`, which the caller has checked
    /// hold `(bits + 7) / 8` bytes there; bits past `bits` in the last byte are ignored.
    init(_ bytes: UnsafeRawBufferPointer, at offset: Int, bits: Int) {
        low = bytes.littleEndian(at: offset, as: UInt64.self)
        for byte in 0..<((bits - 64 + 7) / 8) {
            high |= UInt64(bytes[offset + 8 + byte]) << UInt64(8 * byte)
        }
        high &= (1 << UInt64(bits - 64)) - 1
    }

    /// Whether bit `index` is set.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        index < 64 ? (low >> UInt64(index)) & 1 != 0 : (high >> UInt64(index - 64)) & 1 != 0
    }

    /// How many bits below `index` are set.
    @inline(__always)
    func rank(of index: Int) -> Int {
        if index <= 0 { return 0 }
        if index < 64 { return (low & ((1 << UInt64(index)) - 1)).nonzeroBitCount }
        let highBits = index >= 128 ? high : high & ((1 << UInt64(index - 64)) - 1)
        return low.nonzeroBitCount + highBits.nonzeroBitCount
    }

    /// How many bits are set.
    var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// Whether every bit set here is set in `other`.
    func isSubset(of other: SlotBitmap) -> Bool {
        low & ~other.low == 0 && high & ~other.high == 0
    }
}
