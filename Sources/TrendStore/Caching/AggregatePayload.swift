/// A cached aggregate as stored in `aggregates` (format 1): an envelope (kind, schema
/// version, flags, computedAt, the window of instants it was computed from) around a body,
/// closed by a CRC-32.
///
/// Layout (little-endian): kind (1), schema version (1), flags (1: bit 0 migrated,
/// bit 1 imported from a legacy file), reserved (1), computedAt ms (8), window start
/// ms (8), window end ms (8), body length (4), body, CRC-32 of all before it (4).
/// Binary rather than JSON so a widget reads a cached average in about a microsecond.
struct AggregatePayload: Equatable {
    /// The kind byte: which ``CachedFigures`` kind (or the v1 average) the body holds.
    /// Each kind declares its own; ``CachedKinds`` lists them.
    struct Kind: RawRepresentable, Hashable {
        var rawValue: UInt8
    }

    struct Damage: Error {}

    var kind: Kind
    var schemaVersion: UInt8
    var migrated = false
    var imported = false
    var computedAt: Int64
    /// The instants the figures depend on; writes of samples in it invalidate the payload.
    var window: Range<Int64>
    var body: [UInt8]

    static let headerSize = 32

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.headerSize + body.count + 4)
        writer.append(kind.rawValue)
        writer.append(schemaVersion)
        writer.append((migrated ? 1 : 0) | (imported ? 2 : 0))
        writer.append(0)
        writer.appendLittleEndian(computedAt)
        writer.appendLittleEndian(window.lowerBound)
        writer.appendLittleEndian(window.upperBound)
        writer.appendLittleEndian(UInt32(body.count))
        writer.append(contentsOf: body)
        let checksum = writer.bytes.withUnsafeBytes { ZlibCodec.crc32($0) }
        writer.appendLittleEndian(checksum)
        return writer.bytes
    }

    init(
        kind: Kind, schemaVersion: UInt8, migrated: Bool = false, imported: Bool = false,
        computedAt: Int64, window: Range<Int64>, body: [UInt8]
    ) {
        self.kind = kind
        self.schemaVersion = schemaVersion
        self.migrated = migrated
        self.imported = imported
        self.computedAt = computedAt
        self.window = window
        self.body = body
    }

    /// Decodes a stored payload, checking its checksum and layout.
    init(bytes: UnsafeRawBufferPointer) throws(Damage) {
        guard bytes.count >= Self.headerSize + 4,
            let (checked, stored) = bytes.splittingTrailingChecksum(),
            ZlibCodec.crc32(checked) == stored,
            CachedKinds.knows(Kind(rawValue: bytes[0])), bytes[2] & ~3 == 0, bytes[3] == 0
        else { throw Damage() }
        func load(_ offset: Int) -> Int64 {
            bytes.littleEndian(at: offset, as: Int64.self)
        }
        let length = Int(
            bytes.littleEndian(at: 28, as: UInt32.self))
        let (start, end) = (load(12), load(20))
        guard Self.headerSize + length + 4 == bytes.count, start <= end else { throw Damage() }
        self.init(
            kind: Kind(rawValue: bytes[0]), schemaVersion: bytes[1], migrated: bytes[2] & 1 != 0,
            imported: bytes[2] & 2 != 0,
            computedAt: load(4), window: start..<end,
            body: Array(bytes[Self.headerSize..<(Self.headerSize + length)]))
    }

    /// The window of a stored payload without decoding the rest, or `nil` if it is too short to have one.
    static func window(of bytes: UnsafeRawBufferPointer) -> Range<Int64>? {
        guard bytes.count >= headerSize + 4 else { return nil }
        let start = bytes.littleEndian(at: 12, as: Int64.self)
        let end = bytes.littleEndian(at: 20, as: Int64.self)
        return start <= end ? start..<end : nil
    }
}
