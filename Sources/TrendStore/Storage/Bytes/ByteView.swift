/// Reads of stored bytes in place: the one accessor for integers of either order and the one
/// split of a value from its trailing checksum, so every codec reads them the same way.
extension UnsafeRawBufferPointer {
    /// The little-endian integer of type `T` at `offset`; the caller has checked that its
    /// bytes lie inside the buffer.
    @inline(__always)
    func littleEndian<T: FixedWidthInteger>(at offset: Int, as _: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The big-endian integer of type `T` at `offset` (keys, whose byte order is numeric
    /// order); the caller has checked that its bytes lie inside the buffer.
    @inline(__always)
    func bigEndian<T: FixedWidthInteger>(at offset: Int, as _: T.Type = T.self) -> T {
        T(bigEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The bytes before a trailing 4-byte little-endian checksum, and that checksum; `nil`
    /// when the buffer is shorter than 4 bytes.
    @inline(__always)
    func splittingTrailingChecksum() -> (body: UnsafeRawBufferPointer, checksum: UInt32)? {
        guard count >= 4 else { return nil }
        return (
            UnsafeRawBufferPointer(rebasing: self[..<(count - 4)]),
            littleEndian(at: count - 4, as: UInt32.self)
        )
    }
}
