/// Keys of the `chunks` and `rollups` databases: `seriesID (4 bytes) ‖ index (8 bytes)`, big-endian.
///
/// The index (a chunk window or a UTC day number) has its sign bit flipped, so LMDB's
/// byte order is numeric order and a range of time is one cursor walk.
enum StorageKey {
    static let size = 12

    /// The key for `index` within `series`.
    static func make(series: UInt32, index: Int64) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: size)
        withUnsafeBytes(of: series.bigEndian) { key.replaceSubrange(0..<4, with: $0) }
        let flipped = UInt64(bitPattern: index) ^ (1 << 63)
        withUnsafeBytes(of: flipped.bigEndian) { key.replaceSubrange(4..<12, with: $0) }
        return key
    }

    /// The series and index of a key, or `nil` when the key is not 12 bytes.
    static func parse(_ key: UnsafeRawBufferPointer) -> (series: UInt32, index: Int64)? {
        guard key.count == size else { return nil }
        let series = UInt32(bigEndian: key.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        let flipped = UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
        return (series, Int64(bitPattern: flipped ^ (1 << 63)))
    }
}
