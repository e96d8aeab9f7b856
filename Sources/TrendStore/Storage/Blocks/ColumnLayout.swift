import Foundation

/// How a block (``BlockCodec``) stores one column of unsigned integers before deflate.
///
/// - Byte planes (every value's lowest byte, then every second byte, …, ``ByteColumns``):
///   deflate models them well when a few values dominate (small deltas, rare spikes).
/// - Bit-packed (``PackedColumn`` with base 0): values spread evenly
///   over their range (random decimals, jittering durations) cost their width in bits, where
///   their byte planes cost more (a plane holding the ninth bit of 0…399 is a byte a sample
///   to deflate, which codes no symbol in less than a bit). A column of zeros packs in 0 bytes.
/// - Sparse (block layout 2, the gap column only): a bitmap of which values are not 0, then
///   only those values as byte planes. Seven gaps in ten of watch data are 0: as planes
///   each costs at least a bit per plane, as a bitmap about one bit in all.
///
/// A block chooses per column by estimated deflated size (``DeflateEstimate``) of its byte
/// planes against that of its packed bytes (and, for gaps, its sparse bytes).
enum ColumnLayout: Equatable {
    /// `width` byte planes, 1…8.
    case planes(width: Int)
    /// Values of `bits` bits each (0…64), packed little-endian.
    case packed(bits: Int)
    /// A bitmap of the values that are not 0 (value `i` at bit `i % 8` of byte `i / 8`),
    /// then the `nonzero` values that are not 0 as `width` byte planes (1…8); the block's
    /// header states `nonzero`.
    case sparse(width: Int, nonzero: Int)

    /// The flag that marks a packed layout in a header byte (the low bits hold its width).
    private static let packedFlag: UInt8 = 0x80
    /// The flag that marks a sparse layout in a header byte (the low bits hold its width).
    private static let sparseFlag: UInt8 = 0x40

    /// The layout a block header's byte states (a sparse one with `nonzero` values not 0),
    /// or `nil` when the byte is invalid.
    init?(headerByte: UInt8, nonzero: Int = 0) {
        if (1...8).contains(headerByte) {
            self = .planes(width: Int(headerByte))
        } else if headerByte & Self.packedFlag != 0,
            headerByte & ~Self.packedFlag <= 64
        {
            self = .packed(bits: Int(headerByte & ~Self.packedFlag))
        } else if headerByte & ~Self.sparseFlag != 0, headerByte & ~Self.sparseFlag <= 8,
            headerByte & Self.sparseFlag != 0
        {
            self = .sparse(width: Int(headerByte & ~Self.sparseFlag), nonzero: nonzero)
        } else {
            return nil
        }
    }

    /// The byte a block header stores for this layout.
    var headerByte: UInt8 {
        switch self {
        case .planes(let width): UInt8(width)
        case .packed(let bits): Self.packedFlag | UInt8(bits)
        case .sparse(let width, _): Self.sparseFlag | UInt8(width)
        }
    }

    /// Whether this is a sparse layout.
    var isSparse: Bool {
        if case .sparse = self { true } else { false }
    }

    /// The values not 0 a sparse layout holds; 0 for the others.
    var nonzero: Int {
        if case .sparse(_, let nonzero) = self { nonzero } else { 0 }
    }

    /// The bytes the column's widest value needs.
    var valueBytes: Int {
        switch self {
        case .planes(let width), .sparse(let width, _): width
        case .packed(let bits): (bits + 7) / 8
        }
    }

    /// The payload bytes `count` values take (what ``segments(of:)`` add up to, without
    /// making them: every block read computes its columns' offsets).
    func byteCount(of count: Int) -> Int {
        switch self {
        case .planes(let width): count * width
        case .packed(let bits): PackedColumn(base: 0, width: bits).byteCount(of: count)
        case .sparse(let width, let nonzero): (count + 7) / 8 + nonzero * width
        }
    }

    /// The lengths of the segments of the column's bytes that each deflate best alone: its
    /// planes, its packed bytes, or its bitmap and planes.
    func segments(of count: Int) -> [Int] {
        switch self {
        case .planes(let width): Array(repeating: count, count: width)
        case .packed: [byteCount(of: count)]
        case .sparse(let width, let nonzero):
            [(count + 7) / 8] + Array(repeating: nonzero, count: width)
        }
    }

    /// This layout for `column`: a sparse one counts the values of `column` that are not 0.
    func fitted(to column: [UInt64]) -> ColumnLayout {
        guard case .sparse(let width, _) = self else { return self }
        return .sparse(width: width, nonzero: column.reduce(0) { $0 + ($1 == 0 ? 0 : 1) })
    }

    /// Appends `column` in this layout (a sparse one ``fitted(to:)`` to it).
    func append(_ column: [UInt64], to payload: inout [UInt8]) {
        switch self {
        case .planes(let width):
            ByteColumns.appendPlanes(column, width: width, to: &payload)
        case .sparse(let width, _):
            payload.append(contentsOf: Self.bitmap(of: column))
            ByteColumns.appendPlanes(column.filter { $0 != 0 }, width: width, to: &payload)
        case .packed(let bits):
            let start = payload.count
            payload.append(contentsOf: repeatElement(0, count: byteCount(of: column.count)))
            payload.withUnsafeMutableBytes { bytes in
                column.withUnsafeBufferPointer { values in
                    var offset = start
                    PackedColumn.pack(
                        count: values.count, width: bits, bits: { values[$0] },
                        word: { word in
                            bytes.storeBytes(
                                of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
                            offset &+= 8
                        },
                        byte: { byte in
                            bytes[offset] = byte
                            offset &+= 1
                        })
                }
            }
        }
    }

    /// The bits the widest value of `column` needs.
    private static func bitWidth(of column: [UInt64]) -> Int {
        64 - column.reduce(0, |).leadingZeroBitCount
    }

    /// Whether every value of `column` fits this layout's width.
    func holds(_ column: [UInt64]) -> Bool {
        let bits = Self.bitWidth(of: column)
        switch self {
        case .planes(let width), .sparse(let width, _): return bits <= width * 8
        case .packed(let width): return bits <= width
        }
    }

    /// Which values of `column` are not 0, a bit each, from the lowest bit of the first byte.
    private static func bitmap(of column: [UInt64]) -> [UInt8] {
        var bitmap = [UInt8](repeating: 0, count: (column.count + 7) / 8)
        for (index, value) in column.enumerated() where value != 0 {
            bitmap[index >> 3] |= 1 << UInt8(index & 7)
        }
        return bitmap
    }

    /// The smaller layout for `column` by estimated deflated size, and that size in bits;
    /// `allowsSparse` weighs the sparse layout too.
    static func chosen(for column: [UInt64], allowsSparse: Bool = false) -> (
        layout: ColumnLayout, bits: Double
    ) {
        let bits = bitWidth(of: column)
        // A column of zeros packs in no bytes.
        if bits == 0 { return (.packed(bits: 0), 0) }
        let planeWidth = max(1, (bits + 7) / 8)
        let planeBits = planeDeflatedBits(column, width: planeWidth)
        let packedBits = packedDeflatedBits(column, bits: bits)
        let dense =
            packedBits < planeBits
            ? (layout: ColumnLayout.packed(bits: bits), bits: packedBits)
            : (layout: ColumnLayout.planes(width: planeWidth), bits: planeBits)
        guard allowsSparse else { return dense }
        let values = column.filter { $0 != 0 }
        let bitmap = bitmap(of: column)
        let sparseBits =
            bitmap.withUnsafeBytes {
                DeflateEstimate.bits(DeflateEstimate.histogram(of: $0)[...], count: bitmap.count)
            } + planeDeflatedBits(values, width: planeWidth)
        return sparseBits < dense.bits
            ? (.sparse(width: planeWidth, nonzero: values.count), sparseBits) : dense
    }

    /// The estimated deflated size of `column`'s `width` byte planes, in bits.
    private static func planeDeflatedBits(_ column: [UInt64], width: Int) -> Double {
        var histograms = [Int](repeating: 0, count: 256 * width)
        histograms.withUnsafeMutableBufferPointer { counts in
            for value in column {
                for byte in 0..<width {
                    counts[
                        byte &* 256 &+ Int(UInt8(truncatingIfNeeded: value >> UInt64(byte &* 8)))] &+=
                        1
                }
            }
        }
        return (0..<width).reduce(0) { total, byte in
            total
                + DeflateEstimate.bits(
                    histograms[(byte * 256)..<(byte * 256 + 256)], count: column.count)
        }
    }

    /// The estimated deflated size of `column` packed in `bits` bits a value, in bits.
    private static func packedDeflatedBits(_ column: [UInt64], bits: Int) -> Double {
        var histogram = [Int](repeating: 0, count: 256)
        var bytes = 0
        histogram.withUnsafeMutableBufferPointer { counts in
            column.withUnsafeBufferPointer { values in
                PackedColumn.pack(
                    count: values.count, width: bits, bits: { values[$0] },
                    word: { word in
                        for shift in stride(from: 0, to: 64, by: 8) {
                            counts[Int(UInt8(truncatingIfNeeded: word >> UInt64(shift)))] &+= 1
                        }
                        bytes &+= 8
                    },
                    byte: { byte in
                        counts[Int(byte)] &+= 1
                        bytes &+= 1
                    })
            }
        }
        return DeflateEstimate.bits(histogram[...], count: bytes)
    }
}
