import Foundation
import LMDB

/// One source of a series: its name and the record its blocks are read and written through.
struct SourceStream: Sendable {
    /// The source's name; empty for the default source.
    let name: String
    /// The series' record with this source's stream id and longest duration.
    let record: SeriesRecord
}

/// The sources of a series (format 4): each source's samples are a stream of blocks of its
/// own, the default source's under the series' id; the series' rollups hold their merged
/// figures.
extension SampleStorage {
    /// The sources of `record` in its priority order, highest first, the default source
    /// among them (its stream may be empty); a series without sources has only the default.
    /// A read transaction takes them from ``sourceStreams`` when its snapshot read them.
    func streams<T: ReadableTransaction & ~Copyable>(of record: SeriesRecord, in txn: borrowing T)
        throws -> [SourceStream]
    {
        guard record.hasSources, let sources else {
            return [SourceStream(name: SourceName.defaultSource, record: record)]
        }
        let snapshot = txn.committedSnapshotID
        if let snapshot, let kept = sourceStreams.streams(of: record, snapshot: snapshot) {
            return kept
        }
        var own = record
        own.hasSources = false
        let defaultStream = SourceStream(name: SourceName.defaultSource, record: own)
        var byName = [SourceName.defaultSource: defaultStream]
        for source in try sources.sources(of: record.id, in: txn) {
            byName[source.name] = SourceStream(name: source.name, record: source.stream(of: record))
        }
        let order = try sources.priority(of: record.id, in: txn)
        let streams = SourcePriority.ranked(Array(byName.keys), order: order).compactMap {
            byName[$0]
        }
        if let snapshot { sourceStreams.keep(streams, of: record, snapshot: snapshot) }
        return streams
    }

    /// The stream of source `name` of `record`, for one source's samples or figures.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` for a name too long or a source
    ///   the series does not have.
    func stream<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, named name: String, in txn: borrowing T
    ) throws -> SourceStream {
        let wanted = try SourceName.validated(name)
        let streams = try streams(of: record, in: txn)
        guard let stream = streams.first(where: { $0.name == wanted }) else {
            let known = streams.map { "\"\(SourceName.display($0.name))\"" }
            throw StoreError.invalidArgument(
                .source,
                reason:
                    "series \(record.name) has no source \"\(SourceName.display(wanted))\" (it has \(known.joined(separator: ", ")))"
            )
        }
        return stream
    }

    /// The stream of source `name` (NFC) of `record`, creating it (and marking the series as
    /// one with sources) when it is new; `record` is updated in place.
    func stream(
        named name: String, of record: inout SeriesRecord, in txn: borrowing WriteTransaction
    ) throws -> SourceStream {
        if name == SourceName.defaultSource {
            var own = record
            own.hasSources = false
            return SourceStream(name: name, record: own)
        }
        guard let sources else {
            throw StoreError.incompatibleFormat("the store has no table of sources")
        }
        if record.hasSources,
            let found = try sources.sources(of: record.id, in: txn).first(where: {
                $0.name == name
            })
        {
            return SourceStream(name: name, record: found.stream(of: record))
        }
        let next = try meta.nextSeriesID(in: txn)
        try meta.setNextSeriesID(next &+ 1, in: txn)
        let source = SourceRecord(name: name, streamID: next, maximumDuration: 0)
        try sources.put(source, of: record.id, in: txn)
        if !record.hasSources {
            record.hasSources = true
            try saveSeriesRecord(record, in: txn)
        }
        return SourceStream(name: name, record: source.stream(of: record))
    }

    /// Records that `stream`, a source of `series`, now holds samples as long as `duration`.
    func noteDuration(
        _ duration: Int64, of stream: SourceStream, series: inout SeriesRecord,
        in txn: borrowing WriteTransaction
    ) throws {
        if duration > series.maximumDuration {
            series.maximumDuration = duration
            try saveSeriesRecord(series, in: txn)
        }
        guard !stream.name.isEmpty, duration > stream.record.maximumDuration, let sources else {
            return
        }
        try sources.put(
            SourceRecord(name: stream.name, streamID: stream.record.id, maximumDuration: duration),
            of: series.id, in: txn)
    }

    /// The merged view of `record`'s `streams` (priority order), keeping the samples that
    /// start in `[from, through]` (with `startsOnly`, without the pieces of partly covered
    /// ones): each stream is read far enough around that range for every sample overlapping
    /// a kept one.
    func merged<T: ReadableTransaction & ~Copyable>(
        _ streams: [SourceStream], of record: SeriesRecord, startingFrom from: Int64,
        through: Int64, startsOnly: Bool = false, in txn: borrowing T, zlib: ZlibCodec
    ) throws -> MergedSamples {
        guard from <= through else { return MergedSamples() }
        let reach = record.maximumDuration
        let (low, lowOverflow) = from.subtractingReportingOverflow(reach)
        let (high, highOverflow) = through.addingReportingOverflow(reach)
        let readFrom = lowOverflow ? Int64.min : low
        let readTo = highOverflow || high == .max ? Int64.max : high + 1
        let samples = try streams.map {
            try cachedSamples(of: $0.record, from: readFrom, to: readTo, in: txn, zlib: zlib)
        }
        return SourceMerge.merge(
            samples, kind: record.kind, keepingStartsIn: from...through, pieces: !startsOnly)
    }

    /// The samples of `stream` (one source) starting in `[from, to)`, read through the
    /// decoded-block cache: a widget asking for today's merged curve every few seconds does
    /// not inflate every source's current block each time.
    private func cachedSamples<T: ReadableTransaction & ~Copyable>(
        of stream: SeriesRecord, from: Int64, to: Int64, in txn: borrowing T, zlib: ZlibCodec
    ) throws -> [Sample] {
        var result: [Sample] = []
        guard from < to else { return result }
        try forEachBlock(of: stream, startingFrom: from, through: to - 1, in: txn) {
            firstStart, bytes, header in
            let samples = try decodedBlocks.block(
                firstStart, of: stream, bytes: bytes, header: header, storage: self, zlib: zlib
            ).samples
            let first = samples.partitioningIndex { $0.startMilliseconds >= from }
            let last = samples.partitioningIndex { $0.startMilliseconds >= to }
            if first < last { result.append(contentsOf: samples[first..<last]) }
            return true
        }
        return result
    }
}
