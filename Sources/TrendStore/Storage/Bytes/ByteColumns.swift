/// Columns of unsigned integers stored as byte planes (every value's lowest byte, then
/// every second byte, …), which zlib's entropy coder models far better than interleaved
/// bytes and which decode without branches; and the zig-zag mapping that makes small
/// signed differences small unsigned numbers.
enum ByteColumns {
    @inline(__always)
    static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    @inline(__always)
    static func unZigZag(_ raw: UInt64) -> Int64 {
        Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// Appends `values` as `width` byte planes.
    static func appendPlanes(_ values: [UInt64], width: Int, to payload: inout [UInt8]) {
        let start = payload.count
        let count = values.count
        payload.append(contentsOf: repeatElement(0, count: count * width))
        payload.withUnsafeMutableBufferPointer { bytes in
            values.withUnsafeBufferPointer { values in
                for byte in 0..<width {
                    let shift = UInt64(byte &* 8)
                    let plane = start &+ byte &* count
                    for index in 0..<count {
                        bytes[plane &+ index] = UInt8(truncatingIfNeeded: values[index] >> shift)
                    }
                }
            }
        }
    }

    /// Calls `body(index, start, end)` for each of `count` samples of a block's two time
    /// columns: durations against `durationReference`, start gaps against the previous end
    /// (the first against `firstStart`). Integer arithmetic wraps.
    @inline(__always)
    static func forEachSpan(
        count: Int, durations: UnsafeBufferPointer<UInt64>, gaps: UnsafeBufferPointer<UInt64>,
        durationReference: Int64, firstStart: Int64, _ body: (Int, Int64, Int64) -> Void
    ) {
        var previousEnd = firstStart
        for index in 0..<count {
            let duration = durationReference &+ unZigZag(durations[index])
            let start = previousEnd &+ unZigZag(gaps[index])
            let end = start &+ duration
            body(index, start, end)
            previousEnd = end
        }
    }
}
