import Foundation

/// A series as the `series` database holds it: name → id, unit, longest sample, creation time.
struct SeriesRecord: Equatable {
    let id: UInt32
    let name: String
    let unit: String
    /// The longest duration ever written to the series, in ms: how far back a sample
    /// overlapping a given instant can start.
    var maximumDuration: Int64
    let createdAt: Int64

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 24 + unit.utf8.count)
        writer.appendLittleEndian(id)
        writer.appendLittleEndian(maximumDuration)
        writer.appendLittleEndian(createdAt)
        writer.append(contentsOf: unit.utf8)
        return writer.bytes
    }

    init(id: UInt32, name: String, unit: String, maximumDuration: Int64, createdAt: Int64) {
        self.id = id
        self.name = name
        self.unit = unit
        self.maximumDuration = maximumDuration
        self.createdAt = createdAt
    }

    init?(name: String, bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        guard let id = try? reader.readLittleEndian(UInt32.self),
            let longest = try? reader.readLittleEndian(Int64.self),
            let created = try? reader.readLittleEndian(Int64.self)
        else { return nil }
        self.init(
            id: id, name: name, unit: String(decoding: bytes[reader.offset...], as: UTF8.self),
            maximumDuration: longest, createdAt: created)
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
    /// Whether ``unit`` is only the unit of a series this write creates: an existing series
    /// then keeps its own unit. When `false` (the default), a unit that differs from the
    /// stored one is an error.
    public var unitIsDefault: Bool

    /// Creates a part of a write.
    public init(series: String, unit: String, samples: [Sample], unitIsDefault: Bool = false) {
        self.series = series
        self.unit = unit
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

    /// A summary with the given counts.
    public init(inserted: Int = 0, replaced: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.replaced = replaced
        self.unchanged = unchanged
    }

    /// Adds the counts of `rhs` to `lhs`.
    public static func += (lhs: inout WriteSummary, rhs: WriteSummary) {
        lhs.inserted += rhs.inserted
        lhs.replaced += rhs.replaced
        lhs.unchanged += rhs.unchanged
    }
}

/// A series and what the store holds of it.
public struct SeriesInfo: Sendable, Equatable, Codable {
    /// The series name.
    public var name: String
    /// The unit of its values.
    public var unit: String
    /// How many samples it holds.
    public var sampleCount: Int
    /// The earliest start, or `nil` when the series is empty.
    public var firstStart: Date?
    /// The latest end, or `nil` when the series is empty.
    public var lastEnd: Date?

    /// Creates a description of a series.
    public init(
        name: String, unit: String, sampleCount: Int, firstStart: Date? = nil,
        lastEnd: Date? = nil
    ) {
        self.name = name
        self.unit = unit
        self.sampleCount = sampleCount
        self.firstStart = firstStart
        self.lastEnd = lastEnd
    }
}
