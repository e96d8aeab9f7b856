import LMDB
import Testing
@testable import TrendStore

/// Puts `store` back to how an older release left it: every rollup row rewritten in row
/// `version`, every block in format 2, storage `format` recorded (with no rollup grid
/// before format 7 and no hour phase before format 9), and the newest migrations, which
/// must be `forgotten`, unrecorded, so the next writable open runs them again.
func rewind(
    _ store: TrendStore, rowVersion version: UInt8, format: UInt32, forgetting forgotten: [String]
) throws {
    try store.engine.write { txn, _ in
        let storage = store.engine.storage
        let days = try storage.formatTwoDatabases().days
        for (key, value) in try contents(of: days, in: txn) {
            let day = try #require(key.withUnsafeBytes(StorageKey.parseDayRow)).day
            let rollup = try value.withUnsafeBytes { try RollupRowCodec.decode($0, day: day) }
            try txn.put(RollupRowCodec.encode(rollup, version: version), forKey: key, in: days)
        }
        let blocks = try storage.formatTwoDatabases().blocks
        let zlib = ZlibCodec()
        for (key, value) in try contents(of: blocks, in: txn) {
            var samples: [Sample] = []
            try value.withUnsafeBytes {
                try BlockCodec.decode($0, zlib: zlib, appendingTo: &samples)
            }
            try txn.put(
                BlockCodec.encode(samples[...], packing: false, zlib: zlib), forKey: key,
                in: blocks)
        }
        try StorageFormat.record(format, meta: storage.meta, in: txn)
        if format < StorageFormat.recordsGrid {
            _ = try txn.delete(forKey: Array("rollup-grid".utf8), in: storage.meta)
        }
        if format < StorageFormat.recordsHourPhase {
            _ = try txn.delete(forKey: Array("hour-phase-ms".utf8), in: storage.meta)
        }
        let applied = try Migrator.applied(store.engine.migrationContext, in: txn)
        try #require(Array(applied.suffix(forgotten.count)) == forgotten)
        try txn.put(
            Array(applied.dropLast(forgotten.count).joined(separator: "\n").utf8),
            forKey: Array("migrations".utf8), in: storage.meta)
    }
}

/// Every key and value of `database`, in key order.
private func contents(of database: Database, in txn: borrowing WriteTransaction) throws
    -> [([UInt8], [UInt8])]
{
    var pairs: [([UInt8], [UInt8])] = []
    try txn.withCursor(database) { cursor in
        try cursor.forEach { key, value in
            pairs.append((Array(key), Array(value)))
            return true
        }
    }
    return pairs
}
