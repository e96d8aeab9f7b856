import LMDB

/// Where a store's bytes go: the data file, and the pages of each kind of data in it.
public struct StorageFootprint: Sendable, Equatable, Codable {
    /// The data file's size, free pages and LMDB's own pages included.
    public var fileBytes: Int
    /// Pages holding sample blocks.
    public var sampleBytes: Int
    /// Pages holding rollup rows and their hour summaries.
    public var rollupBytes: Int
    /// Pages holding cached aggregates.
    public var cacheBytes: Int
}

extension TrendStore {
    /// Where the store's bytes go, as one read transaction sees them.
    public nonisolated func footprint() throws -> StorageFootprint {
        let storage = engine.storage
        let groups: [[Database]] = [
            [storage.blocks], [storage.days, storage.hours],
            [engine.caches.aggregates],
        ]
        let bytes = try engine.read { txn in
            var bytes: [Int] = []
            for group in groups {
                var total = 0
                for database in group {
                    total += try txn.statistics(of: database).bytes
                }
                bytes.append(total)
            }
            return bytes
        }
        return StorageFootprint(
            fileBytes: engine.fileSize(), sampleBytes: bytes[0], rollupBytes: bytes[1],
            cacheBytes: bytes[2])
    }
}
