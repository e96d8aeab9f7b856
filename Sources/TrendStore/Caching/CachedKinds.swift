/// Every kind of cached aggregate this version writes: the list ``SchemaKey/parse(_:)`` reads
/// keys against, ``AggregatePayload`` accepts kind bytes from, and a series' removal walks.
/// A new cached aggregate adds its ``CachedFigures`` conformance here.
enum CachedKinds {
    /// The kinds, each once (computed: a stored array of metatypes is not `Sendable`).
    static var all: [any CachedFigures.Type] {
        [WeekdayAverageCache.self, TodayCache.self, HeatmapCache.self]
    }

    /// The kind whose keys have `name` as their second part.
    static func named(_ name: some StringProtocol) -> (any CachedFigures.Type)? {
        all.first { $0.name == name }
    }

    /// Whether a stored payload's kind byte is one this version reads: a listed kind's, or
    /// the v1 average's (kept until its migration removes it).
    static func knows(_ kind: AggregatePayload.Kind) -> Bool {
        kind == V1Average.kind || all.contains { $0.kind == kind }
    }
}
