/// The rollup rows of one series for one block of seven UTC days, stored as one value.
///
/// Rows are about a kilobyte; stored one per key, LMDB fits three in a 4 KiB page and
/// wastes a quarter of it. Seven rows in one value fill whole overflow pages instead.
///
/// Layout: version (1 byte, 1); a mask of the days present (bit `d` for day
/// `block × 7 + d`); each present row's length (2 bytes, little-endian) in day order;
/// the rows themselves (``RollupCodec``, each with its own checksum).
struct RollupBlock {
    static let version: UInt8 = 1
    static let days: Int64 = 7

    /// The block holding UTC day `day`.
    @inline(__always)
    static func index(ofDay day: Int64) -> Int64 { day.floorDivided(by: days) }

    /// The rows present, by UTC day.
    private(set) var rows: [Int64: [UInt8]] = [:]
    let index: Int64

    init(index: Int64) { self.index = index }

    /// Parses a stored block, copying its rows.
    init(index: Int64, bytes: UnsafeRawBufferPointer) throws {
        self.index = index
        try Self.forEachRow(bytes) { offset, row in
            rows[index * Self.days + Int64(offset)] = Array(row)
        }
    }

    mutating func set(_ row: [UInt8]?, forDay day: Int64) {
        precondition(Self.index(ofDay: day) == index, "day \(day) is not in rollup block \(index)")
        rows[day] = row
    }

    var isEmpty: Bool { rows.isEmpty }

    func encoded() -> [UInt8] {
        let ordered = rows.sorted { $0.key < $1.key }
        var mask: UInt8 = 0
        for (day, _) in ordered { mask |= 1 << UInt8(day - index * Self.days) }
        var writer = ByteWriter(
            capacity: 2 + ordered.count * 2 + ordered.reduce(0) { $0 + $1.value.count })
        writer.append(Self.version)
        writer.append(mask)
        for (_, row) in ordered { writer.appendLittleEndian(UInt16(row.count)) }
        for (_, row) in ordered { writer.append(contentsOf: row) }
        return writer.bytes
    }

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
