import Foundation
import LMDB

/// v1 → v2: one average pattern for all days becomes seven weekday averages.
///
/// For each `v1/average/<series>` key: each weekday whose 70-day window has samples gets
/// its v2 average rebuilt from the samples (computed now); each weekday without samples
/// is seeded with the v1 pattern, keeping the v1 `computedAt` and marked migrated, as a
/// fallback until refreshed — unless a readable v2 payload is already there. The v1 key
/// is then removed. An unreadable v1 payload is removed without seeding anything.
enum V1AverageMigration {
    static let prefix = "v1/average/"

    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _ now: Date)
        throws
    {
        for key in try context.caches.aggregateKeys(prefix: prefix, in: txn) {
            try convert(
                series: String(key.dropFirst(prefix.count)), context: context, txn: txn, now: now)
        }
    }

    /// Converts the v1 payload of `series`, if any.
    static func convert(
        series: String, context: MigrationContext, txn: borrowing WriteTransaction, now: Date
    ) throws {
        let v1Key = SchemaKey.v1Average(series)
        // A v1 pattern was computed in the store's own zone; its v2 heirs are filed there.
        let zone = context.defaultZone
        var v1: (average: V1Average, computedAt: Int64, imported: Bool)?
        if case .found(let payload) = try context.caches.payload(v1Key, in: txn),
            let average = V1Average(payload)
        {
            v1 = (average, payload.computedAt, payload.imported)
        }
        // A v1 cache imported before (or without) its samples has no series to rebuild from.
        let (averages, window) =
            try context.storage.seriesRecord(named: series, in: txn) == nil
            ? (
                Weekday.allCases.map {
                    WeekdayAverage(
                        series: series, weekday: $0, days: [], averageHourlyPattern: nil,
                        projectedTotal: nil)
                }, 0..<0
            )
            : try context.queries.weekdayAverages(
                of: series, weekdays: Weekday.allCases, now: now, options: WeekdayAverageOptions(),
                zone: zone, in: txn)
        for (weekday, average) in zip(Weekday.allCases, averages) {
            let key = SchemaKey.weekdayAverage(series, weekday: weekday, zone: zone)
            if average.dayCount > 0 {
                try context.caches.putPayload(
                    AggregatePayload(
                        WeekdayAverageCache.self, average, computedAt: now.millisecondsSince1970,
                        window: window, schemaVersion: 2),
                    forKey: key, in: txn)
            } else if let v1,
                try context.caches.cached(
                    WeekdayAverageCache.self, of: series,
                    variant: WeekdayAverageCache.variant(weekday), zone: zone, now: now, in: txn)
                    == nil
            {
                let seeded = WeekdayAverage(
                    series: series, weekday: average.weekday, days: [],
                    averageHourlyPattern: v1.average.pattern,
                    projectedTotal: v1.average.projectedTotal)
                try context.caches.putPayload(
                    AggregatePayload(
                        WeekdayAverageCache.self, seeded, computedAt: v1.computedAt,
                        window: 0..<0, migrated: true, imported: v1.imported, schemaVersion: 2),
                    forKey: key, in: txn)
            }
        }
        try context.caches.removePayload(forKey: v1Key, in: txn)
    }
}
