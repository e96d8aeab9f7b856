import Foundation

/// The one place a payload is made from its figures and read back into them: each kind's
/// body (``PayloadBodies``, a heatmap bucket as JSON), the schema version it is written with,
/// and what a reader is told about it (``Cached``).
extension AggregatePayload {
    /// The payload of one weekday's average, computed at `computedAt` (ms) from the instants
    /// `window`; `migrated` when a migration seeded it, `imported` when it came from a legacy
    /// cache file.
    static func weekdayAverage(
        _ average: WeekdayAverage, computedAt: Int64, window: Range<Int64>,
        migrated: Bool = false, imported: Bool = false,
        schemaVersion: Int = SchemaKey.currentVersion
    ) -> AggregatePayload {
        AggregatePayload(
            kind: .weekdayAverage, schemaVersion: UInt8(schemaVersion), migrated: migrated,
            imported: imported, computedAt: computedAt, window: window,
            body: PayloadBodies.encode(average))
    }

    /// The payload of today's curve and move goal, computed at `computedAt` (ms) for the
    /// local day whose instants are `window`.
    static func today(
        _ snapshot: TodaySnapshot, computedAt: Int64, window: Range<Int64>,
        imported: Bool = false
    ) -> AggregatePayload {
        AggregatePayload(
            kind: .today, schemaVersion: UInt8(SchemaKey.currentVersion), imported: imported,
            computedAt: computedAt, window: window, body: PayloadBodies.encode(snapshot))
    }

    /// The payload of a heatmap bucket, computed at `computedAt` (ms) from the instants
    /// `window` (empty for a bucket the host wrote or imported: no write invalidates it).
    static func heatmap(
        _ bucket: HeatmapBucket, computedAt: Int64, window: Range<Int64>, imported: Bool = false
    ) throws -> AggregatePayload {
        AggregatePayload(
            kind: .heatmap, schemaVersion: UInt8(SchemaKey.currentVersion), imported: imported,
            computedAt: computedAt, window: window, body: Array(try JSONEncoder().encode(bucket)))
    }

    /// The payload of a schema-v1 average (one pattern for all days), as the old app's cache
    /// file held it; always imported, and of schema 1.
    static func v1Average(_ average: V1Average, computedAt: Int64) -> AggregatePayload {
        AggregatePayload(
            kind: .v1Average, schemaVersion: 1, imported: true, computedAt: computedAt,
            window: 0..<0, body: PayloadBodies.encode(average))
    }

    /// The weekday average of `series` this payload holds; `nil` when it holds another kind,
    /// another weekday, or does not decode.
    func weekdayAverage(of series: String, weekday: Weekday) -> Cached<WeekdayAverage>? {
        guard kind == .weekdayAverage,
            let average = try? PayloadBodies.weekdayAverage(series: series, body),
            average.weekday == weekday
        else { return nil }
        return cached(average)
    }

    /// The today snapshot of `series` this payload holds; `nil` when it holds another kind or
    /// does not decode.
    func today(of series: String) -> Cached<TodaySnapshot>? {
        guard kind == .today, let snapshot = try? PayloadBodies.today(series: series, body) else {
            return nil
        }
        return cached(snapshot)
    }

    /// The heatmap bucket this payload holds; `nil` when it holds another kind or does not
    /// decode.
    func heatmapBucket() -> Cached<HeatmapBucket>? {
        guard kind == .heatmap,
            let bucket = try? JSONDecoder().decode(HeatmapBucket.self, from: Data(body))
        else { return nil }
        return cached(bucket)
    }

    /// The v1 average this payload holds; `nil` when it holds another kind or does not
    /// decode.
    func v1Average() -> V1Average? {
        guard kind == .v1Average else { return nil }
        return try? PayloadBodies.v1Average(body)
    }

    /// `value` with this payload's computedAt, schema version and origin.
    private func cached<Value>(_ value: Value) -> Cached<Value> {
        Cached(
            value: value, computedAt: Date(milliseconds: computedAt),
            schemaVersion: Int(schemaVersion), isMigrated: migrated, isImported: imported)
    }
}
