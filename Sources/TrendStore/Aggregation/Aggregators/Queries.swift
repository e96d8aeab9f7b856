import Foundation
import LMDB

/// The aggregates computed from a store's samples and rollups, inside any transaction the
/// caller holds. Each aggregate's computation is an extension beside its answer type in
/// `Answers/` (today's and a day's curve, weekday averages, heatmaps, interval statistics);
/// here is what they share: the aggregator of a series, merged or of one source.
struct Queries {
    let storage: SampleStorage
    /// The aggregator of `record`'s figures: merged from every source, or of `source` alone.
    func aggregator<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, source: String?, usesRollups: Bool = true, in txn: borrowing T
    ) throws -> SeriesAggregator {
        let read = try reading(record, source: source, in: txn)
        return SeriesAggregator(
            storage: storage, record: read.record, usesRollups: read.usesRollups && usesRollups)
    }

    /// What a query of `record` reads: the series (its rollups hold the merged figures of
    /// every source), or with `source` that source's stream alone, from its samples (the
    /// rollups hold no one source's figures) unless it is the series' only source. While a
    /// priority change rebuilds the series' rows, its merged figures come from its samples.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` for a source the series lacks.
    func reading<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, source: String?, in txn: borrowing T
    ) throws -> (record: SeriesRecord, usesRollups: Bool) {
        guard let source else { return (record, !record.rebuildsRows) }
        let stream = try storage.stream(of: record, named: source, in: txn)
        return record.hasSources ? (stream.record, false) : (record, true)
    }

    /// The record of `series`, which must be cumulative for `query` (an hourly curve).
    func requireCumulative<T: ReadableTransaction & ~Copyable>(
        _ series: String, for query: String, in txn: borrowing T
    ) throws -> SeriesRecord {
        let record = try storage.requireSeries(named: series, in: txn)
        guard record.kind == .cumulative else {
            throw StoreError.unsupportedForKind(
                series: record.name, kind: record.kind,
                reason: "\(query) sums values over time; use statistics (query stats) for "
                    + "averages, minimums and maximums")
        }
        return record
    }
}
