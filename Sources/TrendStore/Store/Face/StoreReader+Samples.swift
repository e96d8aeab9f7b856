import Foundation

/// What a store holds: its series, their samples, units, kinds and sources.
extension StoreReader where Self: ~Copyable {
    /// The samples of `series` that start in `[from, to)`, sorted by start then end: those of
    /// `source` alone, or (`nil`) of every source, as written, whether or not a higher source
    /// covers them.
    ///
    /// - Complexity: Decodes every block the range touches.
    public func samples(of series: String, from: Date, to: Date, source: String? = nil) throws
        -> [Sample]
    {
        try read { snapshot in
            snapshot.region?.read(series)
            let engine = snapshot.engine
            let (low, high) = (from.millisecondsSince1970, to.millisecondsSince1970)
            if let source {
                let stream = try engine.stream(of: series, source: source, in: snapshot.transaction)
                return try engine.storage.samples(
                    of: stream.record, from: low, to: high, in: snapshot.transaction,
                    zlib: ZlibCodec())
            }
            let record = try engine.storage.requireSeries(named: series, in: snapshot.transaction)
            var all: [Sample] = []
            for stream in try engine.storage.streams(of: record, in: snapshot.transaction) {
                all += try engine.storage.samples(
                    of: stream.record, from: low, to: high, in: snapshot.transaction,
                    zlib: ZlibCodec())
            }
            if record.hasSources {
                all.sort {
                    ($0.startMilliseconds, $0.endMilliseconds) < (
                        $1.startMilliseconds, $1.endMilliseconds
                    )
                }
            }
            return all
        }
    }

    /// Every series with its unit, sample count and time span.
    public func series() throws -> [SeriesInfo] {
        try read { snapshot in
            snapshot.region?.readEverySeries()
            return try snapshot.engine.storage.seriesInfos(in: snapshot.transaction)
        }
    }

    /// The unit of `series`, or `nil` when no such series exists.
    public func unit(of series: String) throws -> String? {
        try read { snapshot in
            try snapshot.engine.storage.seriesRecord(named: series, in: snapshot.transaction)?
                .unit
        }
    }

    /// The kind of `series`, or `nil` when no such series exists.
    public func kind(of series: String) throws -> SeriesKind? {
        try read { snapshot in
            try snapshot.engine.storage.seriesRecord(named: series, in: snapshot.transaction)?
                .kind
        }
    }

    /// The sources of `series` in its priority order, highest first, with their sample
    /// counts and spans: every source that wrote samples, and the default source of a series
    /// written without sources (<doc:Sources>).
    ///
    /// - Throws: ``StoreError/Code/unknownSeries``.
    public func sources(of series: String) throws -> [SourceInfo] {
        try read { snapshot in
            snapshot.region?.read(series)
            return try snapshot.engine.sources(of: series, in: snapshot.transaction)
        }
    }

    /// The priority order set for `series`, highest first
    /// (``TrendStore/setSourcePriority(_:for:)``); empty when none was set (the default order
    /// then ranks its sources).
    public func sourcePriority(of series: String) throws -> [String] {
        try read { snapshot in
            snapshot.region?.read(series)
            let storage = snapshot.engine.storage
            let record = try storage.requireSeries(named: series, in: snapshot.transaction)
            return try storage.sources?.priority(of: record.id, in: snapshot.transaction) ?? []
        }
    }
}
