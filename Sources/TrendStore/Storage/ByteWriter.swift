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
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
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

    @inline(__always)
    mutating func readZigZag() throws(Truncated) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    @inline(__always)
    mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type) throws(Truncated) -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= base.count else { throw Truncated() }
        defer { offset += size }
        return T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    @inline(__always)
    mutating func readDouble() throws(Truncated) -> Double {
        Double(bitPattern: try readLittleEndian(UInt64.self))
    }
}
