import Foundation

/// A cached aggregate with what you need to judge it: when it was computed, with which
/// schema, and whether it is being served as a fallback.
public struct Cached<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The figures.
    public var value: Value
    /// When they were computed (for migrated or imported payloads: when the old app computed them).
    public var computedAt: Date
    /// The schema version the payload was written with.
    public var schemaVersion: Int
    /// Whether the payload was seeded from an older format (a fallback until refreshed).
    public var isMigrated: Bool
    /// Whether the payload came from a legacy cache file rather than this store's samples.
    public var isImported: Bool
    /// Whether it is served although the freshness rules call for a refresh (the refresh failed, or was not attempted).
    public var isStale: Bool

    /// Creates a cached value.
    public init(
        value: Value, computedAt: Date, schemaVersion: Int, isMigrated: Bool = false,
        isImported: Bool = false, isStale: Bool = false
    ) {
        self.value = value
        self.computedAt = computedAt
        self.schemaVersion = schemaVersion
        self.isMigrated = isMigrated
        self.isImported = isImported
        self.isStale = isStale
    }

    /// Whether `0 ≤ now − computedAt ≤ maxAge`: a `computedAt` in the future (a clock set back) is not fresh.
    public func isFresh(maxAge: TimeInterval, now: Date = Date()) -> Bool {
        Freshness.isFresh(computedAt: computedAt, maxAge: maxAge, now: now)
    }
}

/// What the widget shows for today: the curve so far, its latest sample and the move goal.
public struct TodaySnapshot: Sendable, Codable, Equatable {
    /// Today's curve.
    public var curve: DayCurve
    /// The daily goal the host read last (kept as the fallback when it cannot read a fresh one).
    public var moveGoal: Double?

    /// Creates a snapshot.
    public init(curve: DayCurve, moveGoal: Double?) {
        self.curve = curve
        self.moveGoal = moveGoal
    }
}

/// Counters of what the caches met, for diagnostics.
public struct CacheStatistics: Sendable, Equatable {
    /// Payloads that could not be decoded, treated as missing and rebuilt.
    public var unreadablePayloads = 0
    /// Refreshes that failed, so a stale payload was served.
    public var failedRefreshes = 0
}
