/// Appends little-endian integers, LEB128 varints and zig-zag varints to a growing byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    @inline(__always)
    mutating func appendZigZag(_ value: Int64) {
        appendVarint(ByteColumns.zigZag(value))
    }

    @inline(__always)
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func appendDouble(_ value: Double) { appendLittleEndian(value.bitPattern) }

    mutating func append(contentsOf other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
}

/// Reads what ``ByteWriter`` writes, from bytes it does not own, checking every bound.
struct ByteReader {
    /// Thrown when the bytes end early or a varint is longer than ten bytes.
    struct Truncated: Error {}

    private let base: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ base: UnsafeRawBufferPointer, offset: Int = 0) {
        self.base = base
        self.offset = offset
    }

    var remaining: Int { base.count - offset }

    @inline(__always)
    mutating func readByte() throws(Truncated) -> UInt8 {
        guard offset < base.count else { throw Truncated() }
        defer { offset += 1 }
        return base[offset]
    }

    @inline(__always)
    mutating func readVarint() throws(Truncated) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < base.count, shift < 64 else { throw Truncated() }
            let byte = base[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// Moves past one varint without decoding it.
    @inline(__always)
    mutating func skipVarint() throws(Truncated) {
        let limit = min(base.count, offset + 10)
        while offset < limit {
            let byte = base[offset]
            offset += 1
            if byte < 0x80 { return }
        }
        throw Truncated()
    }

    /// Moves past `count` varints without decoding them, eight bytes a step: a varint ends
    /// at each byte below 0x80.
    @inline(__always)
    mutating func skipVarints(_ count: Int) throws(Truncated) {
        var left = count
        while left > 0 && base.count - offset >= 8 {
            let word = base.littleEndian(at: offset, as: UInt64.self)
            var ends = ~word & 0x8080_8080_8080_8080
            let found = ends.nonzeroBitCount
            if found < left {
                left -= found
                offset += 8
                continue
            }
            for _ in 1..<left { ends &= ends - 1 }
            offset += ends.trailingZeroBitCount / 8 + 1
            return
        }
        for _ in 0..<left { try skipVarint() }
    }

    /// Calls `body` with the next `count` bytes and moves past them.
    @inline(__always)
    mutating func withBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws
        -> R
    {
        guard count >= 0, count <= remaining else { throw Truncated() }
        let result = try body(UnsafeRawBufferPointer(rebasing: base[offset..<offset + count]))
        offset += count
        return result
    }

    /// Moves past `count` bytes.
    mutating func skip(_ count: Int) throws(Truncated) {
        guard count <= base.count - offset else { throw Truncated() }
        offset += count
    }

    @inline(__always)
    mutating func readZigZag() throws(Truncated) -> Int64 {
        let raw = try readVarint()
        return ByteColumns.unZigZag(raw)
    }

    @inline(__always)
    mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type) throws(Truncated) -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= base.count else { throw Truncated() }
        defer { offset += size }
        return base.littleEndian(at: offset, as: T.self)
    }

    @inline(__always)
    mutating func readDouble() throws(Truncated) -> Double {
        Double(bitPattern: try readLittleEndian(UInt64.self))
    }
}
