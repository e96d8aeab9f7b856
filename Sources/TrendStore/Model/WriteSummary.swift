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
    /// Samples the write removed by id
    /// (``TrendStore/write(_:deletingSamplesWithIDs:externalAnchor:named:)``).
    public var removed = 0

    /// A summary with the given counts.
    public init(
        inserted: Int = 0, replaced: Int = 0, unchanged: Int = 0, duplicates: Int = 0,
        removed: Int = 0
    ) {
        self.inserted = inserted
        self.replaced = replaced
        self.unchanged = unchanged
        self.duplicates = duplicates
        self.removed = removed
    }

    /// Reads a summary; one written before ``duplicates`` or ``removed`` was counted reads 0
    /// there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inserted = try container.decode(Int.self, forKey: .inserted)
        replaced = try container.decode(Int.self, forKey: .replaced)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        duplicates = try container.decodeIfPresent(Int.self, forKey: .duplicates) ?? 0
        removed = try container.decodeIfPresent(Int.self, forKey: .removed) ?? 0
    }

    /// Adds the counts of `rhs` to `lhs`.
    public static func += (lhs: inout WriteSummary, rhs: WriteSummary) {
        lhs.inserted += rhs.inserted
        lhs.replaced += rhs.replaced
        lhs.unchanged += rhs.unchanged
        lhs.duplicates += rhs.duplicates
        lhs.removed += rhs.removed
    }
}
