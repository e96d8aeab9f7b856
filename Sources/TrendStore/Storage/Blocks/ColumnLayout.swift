import Foundation

/// How a block (format 1, ``BlockCodec``) stores one column of unsigned integers before
/// deflate.
///
/// - Byte planes (every value's lowest byte, then every second byte, …, ``ByteColumns``):
///   deflate models them well when a few values dominate (small deltas, rare spikes).
/// - Bit-packed (``PackedColumn`` with base 0): values spread evenly
///   over their range (random decimals, jittering durations) cost their width in bits, where
///   their byte planes cost more (a plane holding the ninth bit of 0…399 is a byte a sample
///   to deflate, which codes no symbol in less than a bit). A column of zeros packs in 0 bytes.
///
/// A block chooses per column by estimated deflated size (``DeflateEstimate``) of its byte
/// planes against that of its packed bytes.
enum ColumnLayout: Equatable {
    /// `width` byte planes, 1…8.
    case planes(width: Int)
    /// Values of `bits` bits each (0…64), packed little-endian.
    case packed(bits: Int)

    /// The flag that marks a packed layout in a header byte (the low bits hold its width).
    private static let packedFlag: UInt8 = 0x80

    /// The layout a block header's byte states, or `nil` when the byte is invalid.
    init?(headerByte: UInt8) {
        if (1...8).contains(headerByte) {
            self = .planes(width: Int(headerByte))
        } else if headerByte & Self.packedFlag != 0,
            headerByte & ~Self.packedFlag <= 64
        {
            self = .packed(bits: Int(headerByte & ~Self.packedFlag))
        } else {
            return nil
        }
    }

    /// The byte a block header stores for this layout.
    var headerByte: UInt8 {
        switch self {
        case .planes(let width): UInt8(width)
        case .packed(let bits): Self.packedFlag | UInt8(bits)
        }
    }

    /// The bytes the column's widest value needs.
    var valueBytes: Int {
        switch self {
        case .planes(let width): width
        case .packed(let bits): (bits + 7) / 8
        }
    }

    /// The payload bytes `count` values take.
    func byteCount(of count: Int) -> Int {
        switch self {
        case .planes(let width): count * width
        case .packed(let bits): PackedColumn(base: 0, width: bits).byteCount(of: count)
        }
    }

    /// The lengths of the parts of the column's bytes that each deflate best alone: its
    /// planes, or its packed bytes.
    func segments(of count: Int) -> [Int] {
        switch self {
        case .planes(let width): Array(repeating: count, count: width)
        case .packed: [byteCount(of: count)]
        }
    }

    /// Appends `column` in this layout.
    func append(_ column: [UInt64], to payload: inout [UInt8]) {
        switch self {
        case .planes(let width):
            ByteColumns.appendPlanes(column, width: width, to: &payload)
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
        case .planes(let width): return bits <= width * 8
        case .packed(let width): return bits <= width
        }
    }

    /// The smaller layout for `column` by estimated deflated size, and that size in bits.
    static func chosen(for column: [UInt64]) -> (layout: ColumnLayout, bits: Double) {
        let bits = bitWidth(of: column)
        // A column of zeros packs in no bytes.
        if bits == 0 { return (.packed(bits: 0), 0) }
        let planeWidth = max(1, (bits + 7) / 8)
        let planeBits = planeDeflatedBits(column, width: planeWidth)
        let packedBits = packedDeflatedBits(column, bits: bits)
        return packedBits < planeBits
            ? (.packed(bits: bits), packedBits) : (.planes(width: planeWidth), planeBits)
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

/// One column of a block's inflated payload, unpacked whole.
struct ColumnReader {
    let payload: UnsafeRawBufferPointer
    /// Where the column starts in `payload`.
    let offset: Int
    /// The values in the column.
    let count: Int
    let layout: ColumnLayout

    /// Every value of the column, in order, into `out` (`count` long), a plane at a time; the
    /// caller has checked that the column lies in `payload`.
    func unpack(into out: UnsafeMutableBufferPointer<UInt64>) {
        switch layout {
        case .planes(let width):
            for index in 0..<count { out[index] = UInt64(payload[offset &+ index]) }
            for byte in 1..<max(1, width) {
                let plane = offset &+ byte &* count
                let shift = UInt64(byte &* 8)
                for index in 0..<count { out[index] |= UInt64(payload[plane &+ index]) << shift }
            }
        case .packed(let bits):
            guard bits > 0 else { return out.update(repeating: 0) }
            let column = PackedColumn(base: 0, width: bits)
            for index in 0..<count {
                out[index] = UInt64(
                    bitPattern: column.value(at: index, offset: offset, in: payload))
            }
        }
    }
}
