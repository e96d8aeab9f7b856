import Foundation
import LMDB

/// v2 keys gain the zone: `v2/weekday-average/<series>/<W>` becomes
/// `v2/weekday-average/<series>/<zone>/<W>`, `v2/today/<series>` becomes
/// `v2/today/<series>/<zone>` and `v2/heatmap/<bucket>` becomes `v2/heatmap/<bucket>/<zone>`.
///
/// Payloads written before this step do not say which zone they were computed for; they
/// are filed under the store's recorded default zone, the zone a handle used unless its
/// caller named another. Payload bytes are moved unchanged.
enum ZonedCacheKeysMigration {
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _ now: Date)
        throws
    {
        let zone = context.defaultZone
        for key in try context.caches.aggregateKeys(prefix: "v2/", in: txn) {
            // Keys already zoned (written by the v1 → v2 step of this version) stay.
            if let parsed = SchemaKey.parse(key), TimeZone(identifier: parsed.zoneIdentifier) != nil
            {
                continue
            }
            guard let newKey = rekeyed(key, zone: zone),
                let bytes = try txn.value(forKey: Array(key.utf8), in: context.caches.aggregates)
            else { continue }
            try txn.put(bytes, forKey: Array(newKey.utf8), in: context.caches.aggregates)
            try txn.delete(forKey: Array(key.utf8), in: context.caches.aggregates)
        }
    }

    /// The zoned key of an unzoned v2 key, or `nil` for a key of no known shape.
    static func rekeyed(_ key: String, zone: TimeZone) -> String? {
        let weekdayPrefix = "v2/weekday-average/"
        let todayPrefix = "v2/today/"
        if key.hasPrefix(weekdayPrefix) {
            let rest = key.dropFirst(weekdayPrefix.count)
            guard let slash = rest.lastIndex(of: "/"),
                let weekday = Int(rest[rest.index(after: slash)...]).flatMap(
                    Weekday.init(rawValue:))
            else { return nil }
            return SchemaKey.weekdayAverage(String(rest[..<slash]), weekday: weekday, zone: zone)
        }
        if key.hasPrefix(todayPrefix) {
            return SchemaKey.today(String(key.dropFirst(todayPrefix.count)), zone: zone)
        }
        if key.hasPrefix(SchemaKey.heatmapPrefix) {
            let bucket = key.dropFirst(SchemaKey.heatmapPrefix.count)
            return SchemaKey.heatmap(bucket.split(separator: ",").map(String.init), zone: zone)
        }
        return nil
    }
}
