import Foundation

/// Samples that carry the ids another system gave them (``SampleID``: HealthKit's `UUID`s),
/// for a mirror that learns of deletions by id.
///
/// A sample keeps the id of its last write: a write with ids records each sample's (or that
/// it has none), and once a series has had ids, a write without them records that its
/// samples have none. The ids travel in the change feed with their samples, and a deletion
/// by id travels as one (``ChangeSet/deletedSampleIDs``). A series whose samples never had
/// ids stores no byte for them.
extension TrendStore {
    /// Writes `samples` to `series`, `samples[i]` with the id `ids[i]` (`nil`: none).
    ///
    /// ```swift
    /// try await store.write(
    ///     samples, ids: healthKitSamples.map { SampleID($0.uuid) },
    ///     to: "activeEnergy", unit: "kcal", source: "Apple Watch")
    /// ```
    ///
    /// - Throws: What ``write(_:to:unit:kind:source:)`` throws, and
    ///   ``StoreError/Code/invalidArgument(_:)`` (``StoreError/Argument/sampleID``) when
    ///   `ids` and `samples` differ in count; nothing is written then.
    @discardableResult
    public func write(
        _ samples: [Sample], ids: [SampleID?], to series: String, unit: String,
        kind: SeriesKind? = nil, source: String? = nil
    ) throws -> WriteSummary {
        let name = try SeriesName.validated(series)
        return try engine.write([
            SeriesSamples(
                series: name, unit: unit, kind: kind, samples: samples, source: source, ids: ids)
        ])[name] ?? WriteSummary()
    }

    /// Removes the samples of `series` whose last write gave them one of `ids` (of any
    /// source); an id that names no sample is passed over, as HealthKit reports deletions
    /// of samples a mirror may never have had.
    ///
    /// - Returns: How many samples were removed.
    /// - Throws: ``StoreError/Code/unknownSeries`` when there is no such series.
    @discardableResult
    public func deleteSamples(withIDs ids: [SampleID], from series: String) throws -> Int {
        try engine.deleteSamples(withIDs: ids, from: try SeriesName.validated(series))
    }

    /// Removes the samples `deleted` names by id (series → ids), writes `entries`, and stores
    /// `anchor` under `name`, all in one transaction: an `HKAnchoredObjectQuery`'s results
    /// (its samples, its deleted objects and its new anchor) land together or not at all,
    /// so a mirror that resumes from ``externalAnchor(named:)`` after a kill neither loses
    /// nor repeats a sample.
    ///
    /// - Returns: What the write changed, per series (``WriteSummary/removed`` counts the
    ///   samples removed by id).
    /// - Throws: What ``write(_:externalAnchor:named:)`` and
    ///   ``deleteSamples(withIDs:from:)`` throw; nothing changes then.
    @discardableResult
    public func write(
        _ entries: [SeriesSamples], deletingSamplesWithIDs deleted: [String: [SampleID]],
        externalAnchor anchor: Data, named name: String
    ) throws -> [String: WriteSummary] {
        var names: [String: [SampleID]] = [:]
        for (series, ids) in deleted { names[try SeriesName.validated(series), default: []] += ids }
        return try engine.write(
            entries, deletedIDs: names,
            externalAnchors: [try Self.checkedAnchorName(name): try Self.checkedAnchor(anchor)])
    }
}
