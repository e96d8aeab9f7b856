/// One column of a block's inflated payload, unpacked whole.
struct ColumnReader {
    let payload: UnsafeRawBufferPointer
    /// Where the column starts in `payload`.
    let offset: Int
    /// The values in the column.
    let count: Int
    let layout: ColumnLayout

    /// Every value of the column, in order, into `out` (`count` long), a plane at a time; the
    /// caller has checked that the column lies in `payload`. `false` when a sparse column's
    /// bitmap marks another number of values than its header states (`out` then holds
    /// zeros past the marks that have no value).
    func unpack(into out: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        switch layout {
        case .sparse(let width, let nonzero):
            let planes = offset &+ (count &+ 7) / 8
            var next = 0
            for index in 0..<count {
                out[index] = 0
                guard payload[offset &+ index >> 3] >> UInt8(index & 7) & 1 == 1 else { continue }
                guard next < nonzero else { return false }
                var value: UInt64 = 0
                for byte in 0..<width {
                    value |= UInt64(payload[planes &+ byte &* nonzero &+ next]) << UInt64(byte &* 8)
                }
                out[index] = value
                next &+= 1
            }
            return next == nonzero
        case .planes(let width):
            for index in 0..<count { out[index] = UInt64(payload[offset &+ index]) }
            for byte in 1..<max(1, width) {
                let plane = offset &+ byte &* count
                let shift = UInt64(byte &* 8)
                for index in 0..<count { out[index] |= UInt64(payload[plane &+ index]) << shift }
            }
        case .packed(let bits):
            guard bits > 0 else {
                out.update(repeating: 0)
                return true
            }
            let column = PackedColumn(base: 0, width: bits)
            for index in 0..<count {
                out[index] = UInt64(
                    bitPattern: column.value(at: index, offset: offset, in: payload))
            }
        }
        return true
    }
}
