/// A byte string deflated behind its length: `varint(length) ‖ zlib stream`. The length
/// bounds what inflating may allocate, so damaged bytes cost at most ``maximumLength``.
enum DeflatedBytes {
    /// The longest byte string read back (64 MiB).
    static let maximumLength = 64 << 20

    /// Why deflated bytes could not be read.
    struct Damage: Error, CustomStringConvertible {
        let description: String
    }

    /// `bytes` deflated behind their length.
    static func pack(_ bytes: [UInt8], zlib: ZlibCodec) throws -> [UInt8] {
        var writer = ByteWriter(capacity: bytes.count / 2 + 16)
        writer.appendVarint(UInt64(bytes.count))
        var packed = writer.bytes
        try bytes.withUnsafeBytes { try zlib.deflate($0, appendingTo: &packed) }
        return packed
    }

    /// The bytes `packed` holds.
    ///
    /// - Throws: ``Damage`` when they are truncated, not deflate's, or longer than
    ///   ``maximumLength``.
    static func unpack(_ packed: UnsafeRawBufferPointer, zlib: ZlibCodec) throws(Damage) -> [UInt8]
    {
        var reader = ByteReader(packed)
        guard let length = try? reader.readVarint(), length <= UInt64(maximumLength) else {
            throw Damage(description: "length missing or over \(maximumLength) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        do {
            try bytes.withUnsafeMutableBytes {
                try zlib.inflate(
                    UnsafeRawBufferPointer(rebasing: packed[reader.offset...]), into: $0)
            }
        } catch {
            throw Damage(description: "\(error)")
        }
        return bytes
    }
}
