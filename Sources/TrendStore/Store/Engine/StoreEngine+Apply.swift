import Foundation
import LMDB

/// Applies another store's change set in one write transaction, by the conflict rule of
/// ``ChangeVersion``: of two writes of one sample identity (series, source, start, end) the
/// later version wins (equal versions, which only samples no change log remembers share, by
/// the larger value bits); a deletion removes the samples it covers written at an older
/// version and refuses older writes of them that arrive later; of two priority orders of a
/// series the later wins. Every decision depends on versions alone, so stores that apply the
/// same change sets in any order hold the same samples, sources and orders.
extension StoreEngine {
    /// The most samples one transaction of an apply writes: a larger change set is applied
    /// in parts of about this many, each its own transaction.
    static let samplesPerApplyBatch = 262_144

    /// Applies `changes` and stores `externalAnchors` (name → bytes) with its last part.
    ///
    /// A set of more than ``samplesPerApplyBatch`` samples is applied in parts
    /// (``ChangeSet/parts(maximumBytes:maximumRecords:)``), each its own transaction: parts
    /// apply in any order, and applying one again changes nothing, so a killed apply is
    /// resumed by applying the whole set again, and the anchors stored with the last part
    /// say that it was all applied. A priority order that wins is applied as
    /// ``setSourcePriority(_:of:daysPerBatch:stoppingAfter:)`` does: the rows of its series
    /// are rebuilt in batches after the parts.
    func apply(
        _ changes: ChangeSet, externalAnchors: [String: [UInt8]] = [:],
        samplesPerBatch: Int = samplesPerApplyBatch
    ) throws -> ApplySummary {
        try ChangeSetValidation.check(changes)
        guard changes.sampleCount > samplesPerBatch else {
            let summary = try applyPart(changes, externalAnchors: externalAnchors)
            if summary.priorityOrders > 0 { try finishRowRebuilds() }
            return summary
        }
        let parts = try changes.parts(
            maximumBytes: .max,
            maximumRecords: max(1, samplesPerBatch / ChangeSetCodec.samplesPerBlock))
        var summary = ApplySummary()
        for (index, part) in parts.enumerated() {
            let done = try applyPart(
                part, externalAnchors: index == parts.count - 1 ? externalAnchors : [:])
            summary.samplesWritten += done.samplesWritten
            summary.samplesIgnored += done.samplesIgnored
            summary.samplesRemoved += done.samplesRemoved
            summary.deletions += done.deletions
            summary.priorityOrders += done.priorityOrders
        }
        if summary.priorityOrders > 0 { try finishRowRebuilds() }
        return summary
    }

    /// Applies `changes` (checked) in one transaction with `externalAnchors`.
    private func applyPart(_ changes: ChangeSet, externalAnchors: [String: [UInt8]]) throws
        -> ApplySummary
    {
        try write { txn, zlib in
            var log = try changeRecorder(zlib: zlib, in: txn)
            guard let sync = storage.sync else {
                throw StoreError.incompatibleFormat("the store keeps no change log (format 5)")
            }
            var summary = ApplySummary()
            var context = ApplyContext(storage: storage, sync: sync, zlib: zlib)
            context.tombstones = try sync.deletions(after: 0, in: txn).map(\.deletion)
            if let newest = changes.newestVersion { log.observe(newest) }
            let rows = RowWrites(storage: storage)
            var removedToday: [RemovedToday] = []
            var declared: [String: ChangeSet.Declaration] = [:]
            for declaration in changes.declarations { declared[declaration.series] = declaration }

            // Priority orders.
            let recorded = Dictionary(
                try sync.priorities(after: 0, in: txn).map { ($0.change.series, $0.change) }
            ) { $1 }
            for change in changes.priorities {
                guard let record = try series(change.series, declared, in: txn) else { continue }
                let current = PriorityChange(
                    series: record.name,
                    order: try storage.sources?.priority(of: record.id, in: txn) ?? [],
                    version: recorded[record.name]?.version ?? .unrecorded)
                guard Self.wins(change, over: current) else { continue }
                try setPriority(change.order, of: record, in: txn)
                log.notePriority(change)
                summary.priorityOrders += 1
            }

            // Deletions.
            for deletion in changes.deletions where !context.tombstones.contains(deletion) {
                context.tombstones.append(deletion)
                log.noteDeletion(deletion)
                summary.deletions += 1
                guard let record = try storage.seriesRecord(named: deletion.series, in: txn)
                else { continue }
                let removal = try remove(
                    deletion, from: record, context: &context, rows: rows, zlib: zlib, in: txn)
                summary.samplesRemoved += removal.removed
                removedToday += removal.removedToday
                let remaining = removal.remaining
                if deletion.removesSeries, remaining == 0 {
                    try forgetVersions(of: record, in: txn)
                    try storage.removeSeries(record, in: txn)
                    _ = try caches.removeAll(of: record.name, in: txn)
                    removedToday.removeAll { $0.parsed.subject == record.name }
                    try storage.countChange(of: record, in: txn)
                }
            }

            // Samples.
            for written in changes.written {
                guard var record = try series(written.series, declared, in: txn) else {
                    throw StoreError.damagedChangeSet(
                        reason: "series \(written.series) is written but not declared")
                }
                let stream =
                    try storage.streams(of: record, in: txn).first { $0.name == written.source }?
                    .record
                let local =
                    try stream.map {
                        try storage.samples(
                            of: $0, from: written.samples.first?.startMilliseconds ?? 0,
                            to: (written.samples.last?.startMilliseconds ?? 0) + 1, in: txn,
                            zlib: zlib)
                    } ?? []
                let tombstones = context.tombstones(
                    of: record.name, source: written.source,
                    starts: (written.samples.first?.startMilliseconds ?? 0)...(written.samples.last?
                        .startMilliseconds ?? 0))
                var accepted: [Sample] = []
                var versions: [ChangeVersion] = []
                var acceptedIDs: [SampleID?] = []
                var index = 0
                for (offset, (sample, version)) in zip(written.samples, written.versions)
                    .enumerated()
                {
                    while index < local.count
                        && (local[index].startMilliseconds, local[index].endMilliseconds)
                            < (sample.startMilliseconds, sample.endMilliseconds)
                    {
                        index += 1
                    }
                    let present =
                        index < local.count
                        && local[index].startMilliseconds == sample.startMilliseconds
                        && local[index].endMilliseconds == sample.endMilliseconds
                    let localVersion = try stream.flatMap {
                        try context.recordedVersion(of: sample, stream: $0, in: txn)
                    }
                    if let newest = Self.newest(of: tombstones, removing: sample),
                        newest >= version
                    {
                        summary.samplesIgnored += 1
                        continue
                    }
                    if present || localVersion != nil {
                        let mine = localVersion ?? .unrecorded
                        let bits = present ? local[index].value.bitPattern : 0
                        guard (version, sample.value.bitPattern) > (mine, bits) else {
                            summary.samplesIgnored += 1
                            continue
                        }
                    }
                    accepted.append(sample)
                    versions.append(version)
                    acceptedIDs.append(written.ids.isEmpty ? nil : written.ids[offset])
                }
                guard !accepted.isEmpty else { continue }
                if !written.ids.isEmpty && !record.keepsSampleIDs {
                    record.keepsSampleIDs = true
                    try storage.saveSeriesRecord(record, in: txn)
                }
                let batch = try SampleBatch(series: record.name, samples: accepted)
                var writer = try writer(
                    for: written.source, of: &record, longest: batch.maximumDuration, zlib: zlib,
                    rows: rows, in: txn)
                _ = try writer.upsert(batch, in: txn)
                log.noteWritten(
                    accepted, stream: writer.record, versions: versions, ids: acceptedIDs)
                try indexSampleIDs(
                    acceptedIDs, of: accepted, series: record.id, stream: writer.record.id,
                    in: txn)
                context.forget(stream: writer.record.id)
                summary.samplesWritten += accepted.count
                removedToday += try changed(record, try writer.finish(in: txn), in: txn)
            }

            // Series declared without samples, recorded so they travel on.
            for declaration in changes.declarations
            where try storage.seriesRecord(named: declaration.series, in: txn) == nil {
                if let record = try series(declaration.series, declared, in: txn) {
                    log.noteDeclared(stream: record.id)
                }
            }
            try finishWrite(
                log, rows: rows, removedToday: removedToday, externalAnchors: externalAnchors,
                in: txn)
            return summary
        }
    }

    /// The record of `name`, created from its declaration in the change set when this store
    /// has no such series; `nil` when it has none and the set declares none.
    ///
    /// - Throws: ``StoreError/Code/unitMismatch`` or
    ///   ``StoreError/Code/kindMismatch`` when the declaration differs.
    private func series(
        _ name: String, _ declared: [String: ChangeSet.Declaration],
        in txn: borrowing WriteTransaction
    ) throws -> SeriesRecord? {
        let declaration = declared[name]
        if let record = try storage.seriesRecord(named: name, in: txn) {
            if let declaration, declaration.unit != record.unit {
                throw StoreError.unitMismatch(
                    series: name, stored: record.unit, given: declaration.unit)
            }
            if let declaration, declaration.kind != record.kind {
                throw StoreError.kindMismatch(
                    series: name, stored: record.kind, given: declaration.kind)
            }
            return record
        }
        guard let declaration else { return nil }
        return try storage.createSeries(
            named: name, unit: declaration.unit, kind: declaration.kind, createdAt: clock(),
            in: txn)
    }

    /// The version of the newest of `tombstones` (newest first) that removes `sample`.
    private static func newest(of tombstones: [SampleDeletion], removing sample: Sample)
        -> ChangeVersion?
    {
        tombstones.first { $0.range.contains(sample.startMilliseconds) && $0.removes(sample) }?
            .version
    }

    /// Whether `incoming` replaces `current`: a later version, or (both unrecorded) the
    /// larger order.
    private static func wins(_ incoming: PriorityChange, over current: PriorityChange) -> Bool {
        if incoming.version != current.version { return incoming.version > current.version }
        return incoming.order.lexicographicallyPrecedes(current.order) == false
            && incoming.order != current.order
    }
}

/// The versions an apply compares with, read once per (stream, day).
struct ApplyContext {
    let storage: SampleStorage
    let sync: SyncTable
    let zlib: ZlibCodec
    var tombstones: [SampleDeletion] = []
    private var days: [StreamDay: DayVersions] = [:]

    init(storage: SampleStorage, sync: SyncTable, zlib: ZlibCodec) {
        self.storage = storage
        self.sync = sync
        self.zlib = zlib
    }

    /// The version recorded for `sample` of the source stream `stream`, if any.
    mutating func recordedVersion<T: ReadableTransaction & ~Copyable>(
        of sample: Sample, stream: SeriesRecord, in txn: borrowing T
    ) throws -> ChangeVersion? {
        try entry(of: sample, stream: stream, in: txn)?.version
    }

    /// What the change log remembers of `sample` of the source stream `stream`, if anything.
    mutating func entry<T: ReadableTransaction & ~Copyable>(
        of sample: Sample, stream: SeriesRecord, in txn: borrowing T
    ) throws -> DayVersions.Entry? {
        let key = StreamDay(
            stream: stream.id, day: sample.startMilliseconds.floorDivided(by: TimeGrid.day))
        if days[key] == nil {
            days[key] = try sync.dayVersions(
                key, zlib: zlib,
                daySamples: {
                    try storage.samples(of: stream, onUTCDay: $0.day, in: txn, zlib: zlib)
                }, in: txn)
        }
        return days[key]?.entry(start: sample.startMilliseconds, end: sample.endMilliseconds)
    }

    /// The version of a stored `sample` of the source stream `stream`: recorded, or
    /// unrecorded.
    mutating func version<T: ReadableTransaction & ~Copyable>(
        of sample: Sample, stream: SeriesRecord, in txn: borrowing T
    ) throws -> ChangeVersion {
        try recordedVersion(of: sample, stream: stream, in: txn) ?? .unrecorded
    }

    /// Drops what was read of `stream` (a write changed it).
    mutating func forget(stream: UInt32) {
        days = days.filter { $0.key.stream != stream }
    }

    /// The deletions that may cover a sample of `source` of `series` starting in `starts`,
    /// newest first, without those a newer one among them covers wholly (a daily prune
    /// leaves one): what each sample of a written group is compared with.
    func tombstones(of series: String, source: String, starts: ClosedRange<Int64>)
        -> [SampleDeletion]
    {
        let relevant = tombstones.filter {
            $0.series == series && ($0.source == nil || $0.source == source)
                && $0.range.lowerBound <= starts.upperBound
                && $0.range.upperBound > starts.lowerBound
        }.sorted { $0.version > $1.version }
        var kept: [SampleDeletion] = []
        for deletion in relevant
        where !kept.contains(where: {
            $0.sample == nil && $0.range.lowerBound <= deletion.range.lowerBound
                && $0.range.upperBound >= deletion.range.upperBound
        }) {
            kept.append(deletion)
        }
        return kept
    }
}
