import LMDB
import Testing
@testable import TrendStore

/// Puts `store` back to how an older release left it: every rollup row rewritten in row
/// `version`, storage `format` recorded, and the newest migrations, which must be
/// `forgotten`, unrecorded, so the next writable open runs them again.
func rewind(
    _ store: TrendStore, rowVersion version: UInt8, format: UInt32, forgetting forgotten: [String]
) throws {
    try store.engine.write { txn, _ in
        let storage = store.engine.storage
        let days = try storage.formatTwoDatabases().days
        var rows: [([UInt8], [UInt8])] = []
        try txn.withCursor(days) { cursor in
            try cursor.forEach { key, value in
                rows.append((Array(key), Array(value)))
                return true
            }
        }
        for (key, value) in rows {
            let day = try #require(key.withUnsafeBytes(StorageKey.parseDayRow)).day
            let rollup = try value.withUnsafeBytes { try RollupRowCodec.decode($0, day: day) }
            try txn.put(RollupRowCodec.encode(rollup, version: version), forKey: key, in: days)
        }
        try StorageFormat.record(format, meta: storage.meta, in: txn)
        let applied = try Migrator.applied(store.engine.migrationContext, in: txn)
        try #require(Array(applied.suffix(forgotten.count)) == forgotten)
        try txn.put(
            Array(applied.dropLast(forgotten.count).joined(separator: "\n").utf8),
            forKey: Array("migrations".utf8), in: storage.meta)
    }
}
