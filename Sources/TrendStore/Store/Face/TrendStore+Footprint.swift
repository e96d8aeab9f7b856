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
    /// Pages holding the change log: the versions of the samples written, the commits,
    /// deletions and priority orders a change feed gives, and external anchors.
    public var changeLogBytes: Int = 0
}

extension TrendStore {
    /// Where the store's bytes go, as one read transaction sees them.
    public nonisolated func footprint() throws -> StorageFootprint {
        let tables = engine.tables
        let bytes = try engine.read { txn in
            [
                try tables.blocks.byteCount(in: txn),
                try tables.days.byteCount(in: txn) + tables.hours.byteCount(in: txn),
                try tables.payloads.byteCount(in: txn),
                try tables.sync?.byteCount(in: txn) ?? 0,
            ]
        }
        return StorageFootprint(
            fileBytes: engine.fileSize(), sampleBytes: bytes[0], rollupBytes: bytes[1],
            cacheBytes: bytes[2], changeLogBytes: bytes[3])
    }
}
