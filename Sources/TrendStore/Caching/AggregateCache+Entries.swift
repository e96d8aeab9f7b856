import Foundation
import LMDB

/// Which cached aggregates a clear removes.
public enum CacheScope: Sendable, Equatable {
    /// Every cached aggregate.
    case all
    /// Every cached aggregate of one series.
    case series(String)
    /// One key, such as `v2/weekday-average/activeEnergy/3`.
    case key(String)
}

/// One cached aggregate, as `trendstore cache list` shows it.
public struct CacheEntryInfo: Sendable, Codable, Equatable {
    /// The versioned key.
    public var key: String
    /// The zone the figures were computed for, or `nil` for a v1 payload (which has none).
    public var timeZone: String?
    /// When the payload was computed, or `nil` when it cannot be read.
    public var computedAt: Date?
    /// The schema version it was written with, or `nil` when it cannot be read.
    public var schemaVersion: Int?
    /// Whether it was seeded by a migration.
    public var migrated: Bool
    /// Whether the freshness rules let it be served at the time asked about.
    public var fresh: Bool
}

extension AggregateCache {
    /// Every cached aggregate with its key, zone, computedAt, schema version and whether the
    /// freshness rules let it be served at `now`.
    func entries<T: ReadableTransaction & ~Copyable>(now: Date, in txn: borrowing T) throws
        -> [CacheEntryInfo]
    {
        try aggregateKeys(prefix: "", in: txn).map { key in
            let parsed = SchemaKey.parse(key)
            guard case .found(let payload) = try payload(key, in: txn) else {
                return CacheEntryInfo(
                    key: key, timeZone: parsed?.zoneIdentifier, computedAt: nil,
                    schemaVersion: nil, migrated: false, fresh: false)
            }
            let fresh = parsed.map { Self.isListedFresh($0.figures, payload, key: $0, now: now) }
            return CacheEntryInfo(
                key: key, timeZone: parsed?.zoneIdentifier,
                computedAt: Date(milliseconds: payload.computedAt),
                schemaVersion: Int(payload.schemaVersion), migrated: payload.migrated,
                fresh: fresh ?? false)
        }
    }

    /// Whether `payload`, stored under the key `key` of the kind `figures`, is fresh at `now`
    /// by that kind's listing rule; not when it holds another kind or does not decode (a v1
    /// average, which `parse` does not read, is never fresh).
    private static func isListedFresh<Figures: CachedFigures>(
        _ figures: Figures.Type, _ payload: AggregatePayload, key: SchemaKey.Parsed, now: Date
    ) -> Bool {
        guard let cached = payload.cached(figures, subject: key.subject, variant: key.variant)
        else { return false }
        return Figures.isListedFresh(
            cached.value, computedAt: cached.computedAt, variant: key.variant, now: now,
            zone: TimeZone(identifier: key.zoneIdentifier))
    }

    /// Removes the cached aggregates `scope` names; returns how many there were.
    func clear(_ scope: CacheScope, in txn: borrowing WriteTransaction) throws -> Int {
        switch scope {
        case .all:
            let keys = try aggregateKeys(prefix: "", in: txn)
            for key in keys { try removePayload(forKey: key, in: txn) }
            return keys.count
        case .series(let series):
            return try removeAll(of: series, in: txn)
        case .key(let key):
            return try removePayload(forKey: key, in: txn) ? 1 : 0
        }
    }
}
