/// A column of integers stored frame-of-reference and bit-packed (in compact rollup rows and,
/// with base 0, block columns of format 1): each value as its
/// difference from the column's smallest value (`base`), in `width` bits (0…64), packed
/// little-endian from the column's first byte, so any value is read at a fixed position
/// without reading the ones before it.
///
/// Stored as a zig-zag varint of the base and a width byte (``appendHeader(_:to:)``), and
/// the packed bits apart (``appendBits(_:to:)``), so a row keeps its headers together.
struct PackedColumn {
    /// The smallest value.
    let base: Int64
    /// Bits per value.
    let width: Int

    /// The frame of reference of `values`: their smallest value and the bits their range needs.
    init(fitting values: [Int64]) {
        let base = values.min() ?? 0
        var combined: UInt64 = 0
        for value in values { combined |= UInt64(bitPattern: value &- base) }
        self.init(base: base, width: 64 - combined.leadingZeroBitCount)
    }

    /// A frame read back from a row.
    init(base: Int64, width: Int) {
        self.base = base
        self.width = width
    }

    /// The bytes `count` packed values take.
    func byteCount(of count: Int) -> Int { (count * width + 7) / 8 }

    /// Appends the base and the width.
    func appendHeader(to writer: inout ByteWriter) {
        writer.appendZigZag(base)
        writer.append(UInt8(width))
    }

    /// Reads a header ``appendHeader(to:)`` wrote; `nil` for a width over 64.
    static func readHeader(_ reader: inout ByteReader) throws(ByteReader.Truncated) -> PackedColumn?
    {
        let base = try reader.readZigZag()
        let width = Int(try reader.readByte())
        return width <= 64 ? PackedColumn(base: base, width: width) : nil
    }

    /// Appends `values` packed, padded to a whole byte.
    func appendBits(_ values: [Int64], to writer: inout ByteWriter) {
        Self.pack(
            count: values.count, width: width, bits: { UInt64(bitPattern: values[$0] &- base) },
            word: { writer.appendLittleEndian($0) },
            byte: { writer.append($0) })
    }

    /// Packs `count` values of `width` bits (`bits(i)` gives value `i`'s, above `width` all
    /// zero) little-endian from the first bit: calls `word` with each whole 64 bits, then
    /// `byte` with each of the last bytes, padded to a whole byte.
    @inline(__always)
    static func pack(
        count: Int, width: Int, bits: (Int) -> UInt64, word: (UInt64) -> Void,
        byte: (UInt8) -> Void
    ) {
        var accumulator: UInt64 = 0
        var filled = 0
        for index in 0..<count {
            let value = bits(index)
            accumulator |= value << UInt64(filled)
            let taken = 64 - filled
            filled += width
            if filled >= 64 {
                word(accumulator)
                filled -= 64
                // The bits of `value` that did not fit (none when it fit exactly).
                accumulator = taken >= 64 ? 0 : value >> UInt64(taken)
            }
        }
        var rest = filled
        while rest > 0 {
            byte(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            rest -= 8
        }
    }

    /// The value at `index` of the column whose packed bits start at `offset` of `bytes`;
    /// the caller has checked that the column's ``byteCount(of:)`` bytes lie inside `bytes`.
    ///
    /// Inlined for certain where the compiler can (`@inline(always)`, Swift 6.3):
    /// `@inline(__always)` alone left a call here, a fifth of a quarter-hour zone's query.
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    func value(at index: Int, offset: Int, in bytes: UnsafeRawBufferPointer) -> Int64 {
        let bit = index &* width
        let first = offset &+ bit >> 3
        let shift = bit & 7
        guard first &+ 9 <= bytes.count else {
            return base &+ Int64(bitPattern: bitsNearEnd(first: first, shift: shift, in: bytes))
        }
        // Nine bytes are there: the value's bits lie in them whatever the shift and width.
        let low =
            bytes.littleEndian(at: first, as: UInt64.self)
            >> UInt64(shift)
        // The ninth byte's bits above the first eight's (none when the shift is 0).
        let high = shift == 0 ? 0 : UInt64(bytes[first &+ 8]) << UInt64(64 &- shift)
        return base &+ Int64(bitPattern: (low | high) & mask)
    }

    /// The low `width` bits set.
    @inline(__always)
    private var mask: UInt64 { width >= 64 ? .max : (1 << UInt64(width)) &- 1 }

    /// The value's bits read a byte at a time, for a value near the end of `bytes`.
    private func bitsNearEnd(first: Int, shift: Int, in bytes: UnsafeRawBufferPointer) -> UInt64 {
        var raw: UInt64 = 0
        var byte = 0
        while byte * 8 < shift + width {
            let position = byte * 8 - shift
            let value = UInt64(bytes[first + byte])
            raw |= position < 0 ? value >> UInt64(-position) : value << UInt64(position)
            byte += 1
        }
        return raw & mask
    }
}
