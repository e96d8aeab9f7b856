import Foundation

/// One kind of cached aggregate: the kind byte and key its payloads are filed under, how its
/// figures are written in a payload's body, and when stored figures must be refreshed.
///
/// Each kind conforms once (``TodayCache``, ``WeekdayAverageCache``, ``HeatmapCache``) and is
/// listed in ``CachedKinds``; ``AggregateCache`` reads, stores, lists and invalidates every kind
/// through these requirements, and ``SchemaKey`` builds and parses every kind's keys with them.
protocol CachedFigures {
    /// The figures a payload of this kind holds.
    associatedtype Value: Sendable & Equatable

    /// The kind byte of its payloads.
    static var kind: AggregatePayload.Kind { get }
    /// The second part of its keys: `v2/<name>/<subject>/<zone>[/<variant>]`.
    static var name: String { get }
    /// Whether a key's subject is one series, so that series' writes and removal reach the
    /// payload by the series' key prefix; `false` for a subject naming several (a heatmap bucket).
    static var subjectIsSeries: Bool { get }

    /// Whether `variant` (the key's last part after the zone, `nil` when there is none) is one
    /// this kind's keys carry.
    static func accepts(variant: String?) -> Bool

    /// The body of a payload holding `value`.
    static func encode(_ value: Value) throws -> [UInt8]

    /// The figures of `body`, stored for `subject` under `variant`; throws when the body does
    /// not decode or holds figures of another variant.
    static func decode(_ body: [UInt8], subject: String, variant: String?) throws -> Value

    /// Whether `value`, computed at `computedAt` for `variant`, must be computed again before
    /// it is served at `now` in `zone`.
    static func isStale(
        _ value: Value, computedAt: Date, variant: String?, now: Date, zone: TimeZone
    ) -> Bool

    /// Whether `cache list` calls `value` fresh at `now`; `zone` is `nil` when the key's zone is
    /// not one this system knows.
    static func isListedFresh(
        _ value: Value, computedAt: Date, variant: String?, now: Date, zone: TimeZone?
    ) -> Bool
}

extension CachedFigures {
    /// Not stale at `now`, in a zone this system knows.
    static func isListedFresh(
        _ value: Value, computedAt: Date, variant: String?, now: Date, zone: TimeZone?
    ) -> Bool {
        guard let zone else { return false }
        return !isStale(value, computedAt: computedAt, variant: variant, now: now, zone: zone)
    }
}
