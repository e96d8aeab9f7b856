/// Keys of format 1 (FORMAT.md): of the `blocks` and `hours` databases, `seriesID (4 bytes) ‖
/// index (8 bytes)`, big-endian; and of the `days` database: `day (8 bytes) ‖ seriesID (4 bytes)`.
///
/// The index (a block's first start, a group of days or a UTC day number) has its sign bit
/// flipped, so LMDB's byte order is numeric order and a range of time is one cursor walk.
enum StorageKey {
    static let size = 12

    /// The key for `index` within `series`.
    static func make(series: UInt32, index: Int64) -> [UInt8] {
        bytes(UInt64(bitPattern: index) ^ (1 << 63), at: 4, series, at: 0)
    }

    /// The series and index of a key, or `nil` when the key is not 12 bytes.
    static func parse(_ key: UnsafeRawBufferPointer) -> (series: UInt32, index: Int64)? {
        guard key.count == size else { return nil }
        let series = key.bigEndian(at: 0, as: UInt32.self)
        let flipped = key.bigEndian(at: 4, as: UInt64.self)
        return (series, Int64(bitPattern: flipped ^ (1 << 63)))
    }

    /// The key of the rollup row of `series` on UTC day `day` in `days`: the day first
    /// (sign bit flipped, big-endian), then the series, so rows written as time goes on
    /// sort last and are appended, filling pages whole.
    static func dayRowKey(series: UInt32, day: Int64) -> [UInt8] {
        bytes(UInt64(bitPattern: day) ^ (1 << 63), at: 0, series, at: 8)
    }

    /// A key of ``size`` bytes: `eight` big-endian at `eightAt`, `four` big-endian at `fourAt`.
    private static func bytes(_ eight: UInt64, at eightAt: Int, _ four: UInt32, at fourAt: Int)
        -> [UInt8]
    {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            bytes.storeBytes(of: eight.bigEndian, toByteOffset: eightAt, as: UInt64.self)
            bytes.storeBytes(of: four.bigEndian, toByteOffset: fourAt, as: UInt32.self)
            count = size
        }
    }

    /// The series and day of a rollup row's key, or `nil` when the key is not 12 bytes.
    static func parseDayRow(_ key: UnsafeRawBufferPointer) -> (series: UInt32, day: Int64)? {
        guard key.count == size else { return nil }
        let flipped = key.bigEndian(at: 0, as: UInt64.self)
        let series = key.bigEndian(at: 8, as: UInt32.self)
        return (series, Int64(bitPattern: flipped ^ (1 << 63)))
    }
}

/// The key of one rollup row in `days`, carried typed while a write transaction changes rows
/// and turned into bytes (``StorageKey/dayRowKey(series:day:)``) only when stored or looked
/// up. Its order, day then series, is the order of its bytes.
struct DayRowKey: Hashable, Comparable {
    /// The series whose row it is.
    let series: UInt32
    /// The UTC day number of the row.
    let day: Int64

    /// The stored key.
    var bytes: [UInt8] { StorageKey.dayRowKey(series: series, day: day) }

    static func < (lhs: DayRowKey, rhs: DayRowKey) -> Bool {
        (lhs.day, lhs.series) < (rhs.day, rhs.series)
    }
}
