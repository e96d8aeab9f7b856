import Foundation

/// A series as the `series` database holds it (format 1): name → id, kind, unit, longest
/// sample, creation time.
///
/// Layout: id (4 bytes), longest duration (8), creation time (8), all little-endian; the
/// byte 0xFF; the kind (0 cumulative, 1 discrete; bit 7 set, in format 4, when the series
/// has a source other than the default: its sources are in `sources`; bit 6 set, in format
/// 6, while a priority change rebuilds its rows; bit 5 set, in format 8, once a write gave
/// its samples ids); last the unit's UTF-8 bytes.
struct SeriesRecord: Equatable {
    let id: UInt32
    let name: String
    let unit: String
    let kind: SeriesKind
    /// The longest duration ever written to the series, in ms: how far back a sample
    /// overlapping a given instant can start.
    var maximumDuration: Int64
    let createdAt: Int64
    /// Whether a source other than the default one has written to the series
    /// (``SourceTable``): its rollups then hold the merged figures of its sources.
    var hasSources = false
    /// Whether a priority change is rebuilding the series' rows, a batch of days at a time
    /// (``SourceTable/pendingRebuild(of:in:)``): until it ends, queries read its samples.
    var rebuildsRows = false
    /// Whether a write has given the series' samples ids (``SampleID``): every later write
    /// then records each sample's id, or that it has none.
    var keepsSampleIDs = false

    private static let kindMarker: UInt8 = 0xFF
    private static let kindCodes: [SeriesKind] = [.cumulative, .discrete]
    private static let sourcesBit: UInt8 = 0x80
    private static let rebuildBit: UInt8 = 0x40
    private static let idsBit: UInt8 = 0x20
    private static let flagBits = sourcesBit | rebuildBit | idsBit

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 26 + unit.utf8.count)
        writer.appendLittleEndian(id)
        writer.appendLittleEndian(maximumDuration)
        writer.appendLittleEndian(createdAt)
        writer.append(Self.kindMarker)
        writer.append(
            (kind == .discrete ? 1 : 0) | (hasSources ? Self.sourcesBit : 0)
                | (rebuildsRows ? Self.rebuildBit : 0) | (keepsSampleIDs ? Self.idsBit : 0))
        writer.append(contentsOf: unit.utf8)
        return writer.bytes
    }

    init(
        id: UInt32, name: String, unit: String, kind: SeriesKind, maximumDuration: Int64,
        createdAt: Int64
    ) {
        self.id = id
        self.name = name
        self.unit = unit
        self.kind = kind
        self.maximumDuration = maximumDuration
        self.createdAt = createdAt
    }

    init?(name: String, bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        guard let id = try? reader.readLittleEndian(UInt32.self),
            let longest = try? reader.readLittleEndian(Int64.self),
            let created = try? reader.readLittleEndian(Int64.self)
        else { return nil }
        guard (try? reader.readByte()) == Self.kindMarker, let byte = try? reader.readByte(),
            Int(byte & ~Self.flagBits) < Self.kindCodes.count
        else { return nil }
        let kind = Self.kindCodes[Int(byte & ~Self.flagBits)]
        self.init(
            id: id, name: name, unit: String(decoding: bytes[reader.offset...], as: UTF8.self),
            kind: kind, maximumDuration: longest, createdAt: created)
        hasSources = byte & Self.sourcesBit != 0
        rebuildsRows = byte & Self.rebuildBit != 0
        keepsSampleIDs = byte & Self.idsBit != 0
    }
}
