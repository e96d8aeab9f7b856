/// A deletion as the change log keeps it (`0x03 ‖ position`) and a change set carries it:
/// the samples of a series (of one source, or of all) whose start lies in a range, at a
/// version; it removes those of them written at an older version, and a write of an older
/// version that arrives later. Layout: a flags byte (1: one source, 2: the series was
/// deleted), the clock (8 bytes little-endian), the origin (16), the range's bounds (8 and 8,
/// little-endian), then the series' and (with flag 1) the source's name (``ByteWriter/appendName(_:)``);
/// with flag 4 (a deletion by id, of one sample: flag 1 set, the range one start wide), the
/// sample's end (8 bytes little-endian) and its id (a byte count, then the bytes).
struct SampleDeletion: Equatable, Sendable {
    /// The series' name (NFC).
    var series: String
    /// The source whose samples go (NFC; empty for the default source); `nil`: every source.
    var source: String?
    /// The starts removed, in milliseconds since 1970.
    var range: Range<Int64>
    /// Whether the series itself was deleted (it goes when no newer sample remains).
    var removesSeries: Bool
    var version: ChangeVersion
    /// With a deletion by id: the one sample it removes.
    var sample: ByID?

    /// The sample a deletion by id removes: the one of its source starting at its range's
    /// lower bound and ending at `end`, and the id it was deleted by.
    struct ByID: Equatable, Sendable {
        var end: Int64
        var id: SampleID
    }

    /// Whether the deletion removes `sample` (of its source), whose start is in `range`.
    func removes(_ sample: Sample) -> Bool {
        self.sample.map { $0.end == sample.endMilliseconds } ?? true
    }

    func encode(into writer: inout ByteWriter) {
        writer.append((source == nil ? 0 : 1) | (removesSeries ? 2 : 0) | (sample == nil ? 0 : 4))
        writer.appendLittleEndian(version.clock)
        writer.append(contentsOf: version.origin.bytes)
        writer.appendLittleEndian(range.lowerBound)
        writer.appendLittleEndian(range.upperBound)
        writer.appendName(series)
        if let source { writer.appendName(source) }
        if let sample {
            writer.appendLittleEndian(sample.end)
            writer.append(UInt8(sample.id.bytes.count))
            writer.append(contentsOf: sample.id.bytes)
        }
    }

    init(
        series: String, source: String?, range: Range<Int64>, removesSeries: Bool,
        version: ChangeVersion, sample: ByID? = nil
    ) {
        self.series = series
        self.source = source
        self.range = range
        self.removesSeries = removesSeries
        self.version = version
        self.sample = sample
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        let flags = try reader.readByte()
        let clock = try reader.readLittleEndian(UInt64.self)
        let origin = try reader.readStoreID()
        let from = try reader.readLittleEndian(Int64.self)
        let to = try reader.readLittleEndian(Int64.self)
        // A deletion of one sample by id names its source and one start.
        guard flags & ~7 == 0, from <= to,
            flags & 4 == 0 || (flags & 3 == 1 && from < to && to &- from == 1)
        else { throw ByteReader.Truncated() }
        series = try reader.readName()
        source = flags & 1 != 0 ? try reader.readName() : nil
        range = from..<to
        removesSeries = flags & 2 != 0
        version = ChangeVersion(clock: clock, origin: origin)
        if flags & 4 != 0 {
            let end = try reader.readLittleEndian(Int64.self)
            let count = Int(try reader.readByte())
            var bytes: [UInt8] = []
            for _ in 0..<count { bytes.append(try reader.readByte()) }
            guard end >= from, let id = SampleID(checking: bytes) else {
                throw ByteReader.Truncated()
            }
            sample = ByID(end: end, id: id)
        } else {
            sample = nil
        }
    }
}

/// A series' priority order as the change log keeps it (`0x04 ‖ position`) and a change
/// set carries it: the later version wins. Layout: the clock (8 bytes little-endian), the
/// origin (16), the series' name, the number of sources (2 bytes little-endian) and their
/// names (``ByteWriter/appendName(_:)``).
struct PriorityChange: Equatable, Sendable {
    var series: String
    /// The sources, highest first (NFC; empty for the default source).
    var order: [String]
    var version: ChangeVersion

    func encode(into writer: inout ByteWriter) {
        writer.appendLittleEndian(version.clock)
        writer.append(contentsOf: version.origin.bytes)
        writer.appendName(series)
        writer.appendLittleEndian(UInt16(clamping: order.count))
        for source in order.prefix(Int(UInt16.max)) { writer.appendName(source) }
    }

    init(series: String, order: [String], version: ChangeVersion) {
        self.series = series
        self.order = order
        self.version = version
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        let clock = try reader.readLittleEndian(UInt64.self)
        let origin = try reader.readStoreID()
        series = try reader.readName()
        let count = Int(try reader.readLittleEndian(UInt16.self))
        guard count * 2 <= reader.remaining else { throw ByteReader.Truncated() }
        order = []
        for _ in 0..<count { order.append(try reader.readName()) }
        version = ChangeVersion(clock: clock, origin: origin)
    }
}

/// The host's anchors kept beside the samples (`0x05`): each name with its bytes. Layout:
/// varints: the number of anchors, then per anchor its name (``ByteWriter/appendName(_:)``),
/// its length (varint) and its bytes.
struct ExternalAnchors: Equatable, Sendable {
    var values: [String: [UInt8]] = [:]

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64)
        writer.appendVarint(UInt64(values.count))
        for name in values.keys.sorted() {
            writer.appendName(name)
            writer.appendVarint(UInt64(values[name]?.count ?? 0))
            writer.append(contentsOf: values[name] ?? [])
        }
        return writer.bytes
    }

    init() {}

    /// The anchors in `bytes`, or `nil` when they are not a record of them.
    init?(bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        do {
            let count = try reader.readVarint()
            guard count <= UInt64(bytes.count) else { return nil }
            for _ in 0..<count {
                let name = try reader.readName()
                let length = try reader.readVarint()
                guard length <= UInt64(reader.remaining) else { return nil }
                values[name] = Array(bytes[reader.offset..<reader.offset + Int(length)])
                try reader.skip(Int(length))
            }
        } catch {
            return nil
        }
        guard reader.remaining == 0 else { return nil }
    }
}
