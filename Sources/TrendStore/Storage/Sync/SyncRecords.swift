/// The store's place in sync (format 5, the `sync` database under key `0x00`): its id, the
/// last reading of its clock, the position of its last recorded change, and the position up
/// to which the change log was pruned. Layout: the id (16 bytes), then the clock, the last
/// position and the pruned position as 8-byte little-endian integers.
struct SyncState: Equatable, Sendable {
    var store: StoreID
    var clock: UInt64
    var lastPosition: UInt64
    /// Changes at or before this position are forgotten: an anchor before it has expired.
    var prunedThrough: UInt64

    /// The stored bytes.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 40)
        writer.append(contentsOf: store.bytes)
        writer.appendLittleEndian(clock)
        writer.appendLittleEndian(lastPosition)
        writer.appendLittleEndian(prunedThrough)
        return writer.bytes
    }

    init(store: StoreID, clock: UInt64, lastPosition: UInt64, prunedThrough: UInt64) {
        self.store = store
        self.clock = clock
        self.lastPosition = lastPosition
        self.prunedThrough = prunedThrough
    }

    /// The state in `bytes`, or `nil` when they are not one.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 40, let store = StoreID(bytes: bytes[0..<16]) else { return nil }
        var reader = ByteReader(bytes, offset: 16)
        guard let clock = try? reader.readLittleEndian(UInt64.self),
            let last = try? reader.readLittleEndian(UInt64.self),
            let pruned = try? reader.readLittleEndian(UInt64.self), pruned <= last
        else { return nil }
        self.init(store: store, clock: clock, lastPosition: last, prunedThrough: pruned)
    }
}

/// What one commit changed, under its feed position (`0x01 ‖ position`, big-endian): when it
/// committed, and each (stream, UTC day) whose ``DayVersions`` it changed. Deletions and
/// priority orders are found by position on their own (``DeletionRecord``,
/// ``PriorityRecord``). Layout: the commit's time (milliseconds, 8 bytes little-endian), then
/// varints: the number of days, and per day the stream id and the day (zig-zag).
struct CommitRecord: Equatable, Sendable {
    /// When the commit was made, in milliseconds since 1970.
    var time: Int64
    /// The (stream id, UTC day) pairs whose versions the commit changed.
    var days: [StreamDay]

    /// The stored bytes.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 12 + 6 * days.count)
        writer.appendLittleEndian(time)
        writer.appendVarint(UInt64(days.count))
        for day in days {
            writer.appendVarint(UInt64(day.stream))
            writer.appendZigZag(day.day)
        }
        return writer.bytes
    }

    init(time: Int64, days: [StreamDay]) {
        self.time = time
        self.days = days
    }

    /// The record in `bytes`, or `nil` when they are not one.
    init?(bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        guard let time = try? reader.readLittleEndian(Int64.self),
            let count = try? reader.readVarint(), count <= UInt64(bytes.count)
        else { return nil }
        var days: [StreamDay] = []
        for _ in 0..<count {
            guard let stream = try? reader.readVarint(), stream <= UInt64(UInt32.max),
                let day = try? reader.readZigZag()
            else { return nil }
            days.append(StreamDay(stream: UInt32(stream), day: day))
        }
        guard reader.remaining == 0 else { return nil }
        self.init(time: time, days: days)
    }
}

/// One source's samples of one UTC day: the key of a ``DayVersions`` record.
struct StreamDay: Hashable, Comparable, Sendable {
    /// The stream id (the series' own for its default source).
    let stream: UInt32
    /// Days since 1970-01-01 (UTC).
    let day: Int64

    static func < (lhs: StreamDay, rhs: StreamDay) -> Bool {
        (lhs.stream, lhs.day) < (rhs.stream, rhs.day)
    }
}

/// Writes and reads the names in sync records: a 2-byte little-endian length, then UTF-8.
extension ByteWriter {
    mutating func appendName(_ name: String) {
        appendLittleEndian(UInt16(clamping: name.utf8.count))
        append(contentsOf: name.utf8.prefix(Int(UInt16.max)))
    }
}

extension ByteWriter {
    /// The bytes written, followed by their CRC-32C (4 bytes, little-endian).
    func checksummed() -> [UInt8] {
        var bytes = self.bytes
        let checksum = bytes.withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

extension ByteReader {
    mutating func readName() throws(Truncated) -> String {
        let length = Int(try readLittleEndian(UInt16.self))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for _ in 0..<length { bytes.append(try readByte()) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A varint count and that many store ids, at most as many as the bytes could hold.
    mutating func readOrigins() throws(Truncated) -> [StoreID] {
        let count = try readVarint()
        guard count <= UInt64(remaining / 16) else { throw Truncated() }
        var origins: [StoreID] = []
        for _ in 0..<count { origins.append(try readStoreID()) }
        return origins
    }

    mutating func readStoreID() throws(Truncated) -> StoreID {
        var bytes: [UInt8] = []
        for _ in 0..<16 { bytes.append(try readByte()) }
        return StoreID(bytes: bytes) ?? .none
    }
}
