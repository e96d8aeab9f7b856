import Foundation

/// The one place a payload is made from its figures and read back into them, for every kind
/// (``CachedFigures``): the body the kind writes, the schema version, and what a reader is told
/// about it (``Cached``).
extension AggregatePayload {
    /// The payload of `value`, figures of the kind `figures`, computed at `computedAt` (ms)
    /// from the instants `window` (empty when no write of samples should invalidate it);
    /// `migrated` when a migration seeded it, `imported` when it came from a legacy cache file.
    init<Figures: CachedFigures>(
        _ figures: Figures.Type, _ value: Figures.Value, computedAt: Int64, window: Range<Int64>,
        migrated: Bool = false, imported: Bool = false,
        schemaVersion: Int = SchemaKey.currentVersion
    ) throws {
        self.init(
            kind: Figures.kind, schemaVersion: UInt8(schemaVersion), migrated: migrated,
            imported: imported, computedAt: computedAt, window: window,
            body: try Figures.encode(value))
    }

    /// The figures of the kind `figures` this payload holds for `subject` and `variant`, with
    /// its computedAt, schema version and origin; `nil` when it holds another kind, or a body
    /// that does not decode or belongs to another variant.
    func cached<Figures: CachedFigures>(
        _ figures: Figures.Type, subject: String, variant: String?
    ) -> Cached<Figures.Value>? {
        guard kind == Figures.kind,
            let value = try? Figures.decode(body, subject: subject, variant: variant)
        else { return nil }
        return Cached(
            value: value, computedAt: Date(milliseconds: computedAt),
            schemaVersion: Int(schemaVersion), isMigrated: migrated, isImported: imported)
    }
}
