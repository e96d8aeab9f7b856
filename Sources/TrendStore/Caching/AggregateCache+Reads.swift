import Foundation
import LMDB

extension AggregateCache {
    /// The payload under `key`, counting an unreadable one in the statistics.
    func readablePayload<T: ReadableTransaction & ~Copyable>(_ key: String, in txn: borrowing T)
        throws -> StoredPayload
    {
        let stored = try payload(key, in: txn)
        if case .unreadable = stored { counters.withLock { $0.unreadablePayloads += 1 } }
        return stored
    }

    /// The stored weekday average computed in `zone`, or `nil` when missing or unreadable.
    func cachedWeekdayAverage<T: ReadableTransaction & ~Copyable>(
        _ series: String, weekday: Weekday, zone: TimeZone, in txn: borrowing T
    ) throws -> Cached<WeekdayAverage>? {
        guard
            case .found(let payload) = try readablePayload(
                SchemaKey.weekdayAverage(series, weekday: weekday, zone: zone), in: txn)
        else { return nil }
        guard payload.kind == .weekdayAverage,
            let average = try? PayloadBodies.weekdayAverage(series: series, payload.body),
            average.weekday == weekday
        else {
            counters.withLock { $0.unreadablePayloads += 1 }
            return nil
        }
        return Cached(
            value: average, computedAt: Date(milliseconds: payload.computedAt),
            schemaVersion: Int(payload.schemaVersion),
            isMigrated: payload.migrated, isImported: payload.imported)
    }
}
