import Foundation

/// A series as the `series` database holds it: name → id, kind, unit, longest sample, creation time.
///
/// Layout: id (4 bytes), longest duration (8), creation time (8), then, from storage
/// format 3 on, the byte 0xFF (never a UTF-8 byte, so it cannot start a format-2 unit)
/// and the kind (0 cumulative, 1 discrete); last the unit's UTF-8 bytes. A record
/// without the marker was written before kinds existed: its series is cumulative.
struct SeriesRecord: Equatable {
    let id: UInt32
    let name: String
    let unit: String
    let kind: SeriesKind
    /// The longest duration ever written to the series, in ms: how far back a sample
    /// overlapping a given instant can start.
    var maximumDuration: Int64
    let createdAt: Int64

    private static let kindMarker: UInt8 = 0xFF
    private static let kindCodes: [SeriesKind] = [.cumulative, .discrete]

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 26 + unit.utf8.count)
        writer.appendLittleEndian(id)
        writer.appendLittleEndian(maximumDuration)
        writer.appendLittleEndian(createdAt)
        writer.append(Self.kindMarker)
        writer.append(kind == .discrete ? 1 : 0)
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
        var kind = SeriesKind.cumulative
        if Self.recordsKind(bytes) {
            guard (try? reader.readByte()) != nil, let code = try? reader.readByte(),
                Int(code) < Self.kindCodes.count
            else { return nil }
            kind = Self.kindCodes[Int(code)]
        }
        self.init(
            id: id, name: name, unit: String(decoding: bytes[reader.offset...], as: UTF8.self),
            kind: kind, maximumDuration: longest, createdAt: created)
    }

    /// Whether the stored bytes say the kind (written by format 3 or later).
    static func recordsKind(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 22 && bytes[20] == kindMarker
    }
}

/// Samples for one series, as one part of a write.
public struct SeriesSamples: Sendable, Codable, Equatable {
    /// The series name: 1 to 255 UTF-8 bytes.
    public var series: String
    /// The unit of the values, such as `kcal`; a series keeps the unit it was created with.
    public var unit: String
    /// The samples, in any order.
    public var samples: [Sample]
    /// The kind of a series this write creates (`nil`: cumulative); for an existing series
    /// a kind other than its own is an error, and `nil` accepts any.
    public var kind: SeriesKind?
    /// Whether ``unit`` is only the unit of a series this write creates: an existing series
    /// then keeps its own unit. When `false` (the default), a unit that differs from the
    /// stored one is an error.
    public var unitIsDefault: Bool

    /// Creates a part of a write.
    public init(
        series: String, unit: String, kind: SeriesKind? = nil, samples: [Sample],
        unitIsDefault: Bool = false
    ) {
        self.series = series
        self.unit = unit
        self.kind = kind
        self.samples = samples
        self.unitIsDefault = unitIsDefault
    }
}

/// What a write changed.
public struct WriteSummary: Sendable, Equatable, Codable {
    /// Samples whose identity was new.
    public var inserted = 0
    /// Samples that replaced a stored sample with the same identity and another value.
    public var replaced = 0
    /// Samples identical to what was stored, which changed nothing.
    public var unchanged = 0
    /// Samples that a later sample of the same identity in the same write replaced before
    /// anything was stored (the last one is counted as inserted, replaced or unchanged), so
    /// the four counts add up to the samples written.
    public var duplicates = 0

    /// A summary with the given counts.
    public init(inserted: Int = 0, replaced: Int = 0, unchanged: Int = 0, duplicates: Int = 0) {
        self.inserted = inserted
        self.replaced = replaced
        self.unchanged = unchanged
        self.duplicates = duplicates
    }

    /// Reads a summary; one written before ``duplicates`` was counted reads 0 there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inserted = try container.decode(Int.self, forKey: .inserted)
        replaced = try container.decode(Int.self, forKey: .replaced)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        duplicates = try container.decodeIfPresent(Int.self, forKey: .duplicates) ?? 0
    }

    /// Adds the counts of `rhs` to `lhs`.
    public static func += (lhs: inout WriteSummary, rhs: WriteSummary) {
        lhs.inserted += rhs.inserted
        lhs.replaced += rhs.replaced
        lhs.unchanged += rhs.unchanged
        lhs.duplicates += rhs.duplicates
    }
}

/// A series and what the store holds of it.
public struct SeriesInfo: Sendable, Equatable, Codable {
    /// The series name.
    public var name: String
    /// The unit of its values.
    public var unit: String
    /// Whether its values add up or are measurements.
    public var kind: SeriesKind
    /// How many samples it holds.
    public var sampleCount: Int
    /// The earliest start, or `nil` when the series is empty.
    public var firstStart: Date?
    /// The latest end, or `nil` when the series is empty.
    public var lastEnd: Date?

    /// Creates a description of a series.
    public init(
        name: String, unit: String, kind: SeriesKind = .cumulative, sampleCount: Int,
        firstStart: Date? = nil, lastEnd: Date? = nil
    ) {
        self.name = name
        self.unit = unit
        self.kind = kind
        self.sampleCount = sampleCount
        self.firstStart = firstStart
        self.lastEnd = lastEnd
    }
}
