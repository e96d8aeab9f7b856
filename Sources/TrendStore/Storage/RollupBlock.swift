/// Reads the format-1 rollup rows of one series for one block of seven UTC days, stored as
/// one value (format 2 stores one smaller row per day instead).
///
/// Layout: version (1 byte, 1); a mask of the days present (bit `d` for day
/// `block × 7 + d`); each present row's length (2 bytes, little-endian) in day order;
/// the rows themselves (``RollupCodec``, each with its own checksum).
enum RollupBlock {
    static let version: UInt8 = 1
    static let days: Int64 = 7

    /// The block holding UTC day `day`.
    @inline(__always)
    static func index(ofDay day: Int64) -> Int64 { day.floorDivided(by: days) }

    /// Calls `body(dayOffset, row)` for each row of a stored block, without copying.
    ///
    /// - Throws: ``RollupCodec/Damage`` when the block's own layout is broken, or what `body` throws.
    @inline(__always)
    static func forEachRow(
        _ bytes: UnsafeRawBufferPointer, _ body: (Int, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard bytes.count >= 2, bytes[0] == version, bytes[1] & 0x80 == 0 else {
            throw RollupCodec.Damage(reason: "not a rollup block")
        }
        let mask = bytes[1]
        let present = mask.nonzeroBitCount
        var rowStart = 2 + present * 2
        guard bytes.count >= rowStart else {
            throw RollupCodec.Damage(reason: "truncated rollup block")
        }
        var slot = 0
        for offset in 0..<7 where mask & (1 << UInt8(offset)) != 0 {
            let length = Int(
                UInt16(
                    littleEndian: bytes.loadUnaligned(fromByteOffset: 2 + slot * 2, as: UInt16.self)
                ))
            guard rowStart + length <= bytes.count else {
                throw RollupCodec.Damage(reason: "truncated rollup block")
            }
            try body(
                offset, UnsafeRawBufferPointer(rebasing: bytes[rowStart..<(rowStart + length)]))
            rowStart += length
            slot += 1
        }
        guard rowStart == bytes.count else {
            throw RollupCodec.Damage(reason: "trailing bytes in rollup block")
        }
    }
}
