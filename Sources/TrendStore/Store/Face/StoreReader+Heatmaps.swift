import Foundation
import LMDB

/// Heatmaps: computed in any snapshot, and through their cache.
extension StoreReader where Self: ~Copyable {
    /// Per-day counts and totals of `series` for every local date in `from...through`.
    ///
    /// A sample counts, whole, on the local day holding its start. Days without samples
    /// are included with zeros. For long ranges, ``forEachHeatmapDay(of:from:through:timeZone:source:_:)``
    /// hands out the days without holding them all.
    ///
    /// ```swift
    /// let year = try store.heatmap(of: ["Run", "Ride"], from: LocalDate("2026-01-01")!, through: LocalDate("2026-12-31")!)
    /// ```
    ///
    /// A sample of a series of several sources counts as its priority order says
    /// (<doc:Sources>); with `source`, that source's samples alone count.
    ///
    /// - Throws: ``StoreError/Code/unknownSeries`` when a series does not exist.
    /// - Complexity: One cursor walk over each series' rollups in the range.
    public func heatmap(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone? = nil,
        source: String? = nil
    ) throws -> Heatmap {
        try read { snapshot in
            snapshot.region?.read(series)
            return try snapshot.engine.queries.heatmap(
                of: series, from: from, through: through,
                zone: timeZone ?? snapshot.engine.timeZone, source: source,
                in: snapshot.transaction)
        }
    }

    /// Calls `body` with each day of the heatmap of `series` over `from...through`, oldest
    /// first, computing a year at a time inside one read transaction: memory stays flat
    /// over any range, and every day comes from the same snapshot.
    ///
    /// - Warning: `body` runs inside a read transaction: keep it short and do not write to the store from it.
    public func forEachHeatmapDay(
        of series: [String], from: LocalDate, through: LocalDate, timeZone: TimeZone? = nil,
        source: String? = nil, _ body: (HeatmapDay) throws -> Void
    ) throws {
        try read { snapshot in
            snapshot.region?.read(series)
            try snapshot.engine.queries.forEachHeatmapDay(
                of: series, from: from, through: through,
                zone: timeZone ?? snapshot.engine.timeZone, source: source,
                in: snapshot.transaction
            ) { day in try body(day) }
        }
    }
}

extension TrendStore {
    /// The cached bucket of `series` (any order) for dates in `timeZone` (default: the
    /// store's), or `nil` when there is none or it cannot be read.
    ///
    /// Judge it with `isFresh(maxAge:)`: buckets have no fixed lifetime.
    public nonisolated func cachedHeatmap(
        of series: some Collection<String>, timeZone: TimeZone? = nil
    ) throws -> Cached<HeatmapBucket>? {
        let now = engine.clock()
        let zone = timeZone ?? engine.timeZone
        return try engine.read { txn in
            try engine.caches.cached(
                HeatmapCache.self, of: Heatmap.bucketKey(for: series), zone: zone, now: now,
                in: txn)
        }
    }

    /// Stores a bucket for `series`, keeping every other bucket; its `computedAt` is the store's clock.
    ///
    /// A bucket written this way was not computed from the store's samples, so writing
    /// samples never invalidates it.
    public func writeHeatmapCache(
        _ bucket: HeatmapBucket, of series: some Collection<String>,
        timeZone: TimeZone? = nil
    ) throws {
        try storeHeatmap(
            bucket, of: series, zone: timeZone ?? engine.timeZone, computedAt: engine.clock(),
            window: 0..<0, imported: false)
    }

    /// The heatmap of `series` over `from…through`, from its cached bucket when that is at most
    /// `maxAge` old and covers the same dates, else computed from the samples and stored.
    ///
    /// A bucket computed here is invalidated by writes of samples of its series inside its dates.
    public func refreshedHeatmap(
        of series: [String], from: LocalDate, through: LocalDate, maxAge: TimeInterval,
        timeZone: TimeZone? = nil
    ) throws -> Cached<Heatmap> {
        let now = engine.clock()
        let zone = timeZone ?? engine.timeZone
        if let cached = try cachedHeatmap(of: series, timeZone: zone),
            cached.isFresh(maxAge: maxAge, now: now),
            cached.value.heatmapDays.first?.date == from,
            cached.value.heatmapDays.last?.date == through
        {
            return Cached(
                value: Heatmap(
                    bucket: Heatmap.bucketKey(for: series), days: cached.value.heatmapDays),
                computedAt: cached.computedAt, schemaVersion: cached.schemaVersion)
        }
        // Computed and stored in one transaction, so no write can commit between the two
        // unseen by the bucket (its invalidation would come before the bucket is stored).
        let heatmap = try engine.write { txn, _ in
            let heatmap = try engine.queries.heatmap(
                of: series, from: from, through: through, zone: zone, in: txn)
            try engine.caches.put(
                HeatmapCache.self, HeatmapBucket(heatmapDays: heatmap.days),
                of: heatmap.bucket, zone: zone, computedAt: now,
                window: HeatmapCache.window(from: from, through: through, zone: zone), in: txn)
            return heatmap
        }
        return Cached(
            value: heatmap, computedAt: Date(milliseconds: now.millisecondsSince1970),
            schemaVersion: SchemaKey.currentVersion)
    }

    /// Stores buckets read from a legacy activity cache file, each with its own `fetchedAt`.
    public func importHeatmapBuckets(
        _ buckets: [(series: [String], bucket: HeatmapBucket, fetchedAt: Date)]
    ) throws {
        for item in buckets {
            try storeHeatmap(
                item.bucket, of: item.series, zone: engine.timeZone, computedAt: item.fetchedAt,
                window: 0..<0, imported: true)
        }
    }

    private func storeHeatmap(
        _ bucket: HeatmapBucket, of series: some Collection<String>, zone: TimeZone,
        computedAt: Date, window: Range<Int64>, imported: Bool
    ) throws {
        try engine.write { txn, _ in
            try engine.caches.put(
                HeatmapCache.self, bucket, of: Heatmap.bucketKey(for: series), zone: zone,
                computedAt: computedAt, window: window, imported: imported, in: txn)
        }
    }
}
