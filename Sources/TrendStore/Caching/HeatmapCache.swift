import Foundation

/// A heatmap bucket, cached under `v2/heatmap/<bucket>/<zone>` (bucket =
/// ``Heatmap/bucketKey(for:)``), its body the bucket as JSON: never stale by a rule of its
/// own (hosts judge a bucket with their own `maxAge`); `cache list` calls it fresh up to
/// ``Freshness/heatmapListingMaximumAge``.
enum HeatmapCache: CachedFigures {
    static let kind = AggregatePayload.Kind(rawValue: 3)
    static let name = "heatmap"
    static let subjectIsSeries = false

    static func accepts(variant: String?) -> Bool { variant == nil }

    /// The instants of the local dates `from…through` in `zone`: the window a write of one of
    /// the bucket's series invalidates a computed bucket in.
    static func window(from: LocalDate, through: LocalDate, zone: TimeZone) -> Range<Int64> {
        let grid = LocalDayGrid(zone: zone, from: from, through: through)
        return grid.bounds(of: from).start..<grid.bounds(of: through).end
    }

    static func encode(_ bucket: HeatmapBucket) throws -> [UInt8] {
        Array(try JSONEncoder().encode(bucket))
    }

    static func decode(_ body: [UInt8], subject: String, variant: String?) throws
        -> HeatmapBucket
    {
        try JSONDecoder().decode(HeatmapBucket.self, from: Data(body))
    }

    static func isStale(
        _ bucket: HeatmapBucket, computedAt: Date, variant: String?, now: Date, zone: TimeZone
    ) -> Bool { false }

    static func isListedFresh(
        _ bucket: HeatmapBucket, computedAt: Date, variant: String?, now: Date, zone: TimeZone?
    ) -> Bool {
        Freshness.isFresh(
            computedAt: computedAt, maxAge: Freshness.heatmapListingMaximumAge, now: now)
    }
}
