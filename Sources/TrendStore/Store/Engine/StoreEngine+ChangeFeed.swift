import Foundation
import LMDB

/// The change feed: what the store committed after an anchor, read in one transaction.
extension StoreEngine {
    /// Every sample written, deletion and priority order committed after `anchor` (all the
    /// store holds and remembers when `nil`), with the declarations of their series.
    ///
    /// - Throws: ``StoreError/Code/foreignAnchor``, ``StoreError/Code/anchorExpired``.
    func changes(since anchor: ChangeAnchor?) throws -> ChangeSet {
        var whole: ChangeSet?
        try changes(since: anchor, partSamples: .max) { whole = $0 }
        guard let whole else { throw StoreError.incompatibleFormat("the feed gave no part") }
        return whole
    }

    /// The changes after `anchor`, as ``changes(since:)`` gives them, passed to `body` in
    /// parts of at most about `partSamples` samples (a part ends after the block or day that
    /// reaches the bound), all read in one transaction: each part declares the series it
    /// writes, and the last carries the deletions, priority orders and every other
    /// declaration. The parts apply in any order.
    func changes(
        since anchor: ChangeAnchor?, partSamples: Int, _ body: (ChangeSet) throws -> Void
    ) throws {
        try read { txn in
            guard let sync = storage.sync, let state = try sync.state(in: txn) else {
                throw StoreError.incompatibleFormat(
                    "the store keeps no change log (format 5); open it writable once to migrate it")
            }
            if let anchor {
                guard anchor.store == state.store else {
                    throw StoreError.foreignAnchor(store: anchor.store.hex)
                }
                guard anchor.position >= state.prunedThrough,
                    anchor.position <= state.lastPosition
                else { throw StoreError.anchorExpired(retentionDays: changeRetentionDays) }
            }
            let after = anchor?.position ?? 0
            let zlib = ZlibCodec()
            var feed = FeedBuilder(
                anchor: ChangeAnchor(store: state.store, position: state.lastPosition))
            let streams = try streamsByID(in: txn)
            let records = Dictionary(
                try storage.allSeriesRecords(in: txn).map { ($0.name, $0) },
                uniquingKeysWith: { a, _ in a })
            if anchor == nil {
                for (id, stream) in streams.sorted(by: { $0.key < $1.key }) {
                    _ = try storage.forEachBlockOfSamples(
                        of: stream.record, from: .min, to: .max, in: txn, zlib: zlib
                    ) { samples in
                        try feed.addAll(
                            of: stream,
                            versions: {
                                try sync.versionsOfPresentSamples($0, zlib: zlib, in: txn)
                            },
                            samples: samples, id: id)
                        if feed.sampleCount >= partSamples {
                            try body(feed.takePart(declaring: records))
                        }
                    }
                }
                for record in records.values { feed.declare(record) }
            } else {
                var touched = Set<StreamDay>()
                try sync.forEachCommit(after: after, in: txn) { _, commit in
                    touched.formUnion(commit.days)
                    return true
                }
                for key in touched.sorted() {
                    guard let stream = streams[key.stream] else { continue }
                    // A day without versions is a series declared without samples.
                    feed.touched.insert(stream.series)
                    let entries = try sync.dayVersions(
                        key, zlib: zlib, after: after,
                        daySamples: {
                            try storage.samples(
                                of: stream.record, onUTCDay: $0.day, in: txn, zlib: zlib)
                        }, in: txn
                    )
                    .entries(after: after)
                    guard let first = entries.first, let last = entries.last else { continue }
                    let samples = try storage.samples(
                        of: stream.record, from: first.start, to: last.start + 1, in: txn,
                        zlib: zlib)
                    feed.add(entries, present: samples, of: stream)
                    if feed.sampleCount >= partSamples {
                        try body(feed.takePart(declaring: records))
                    }
                }
            }
            feed.deletions = try sync.deletions(after: after, in: txn).map(\.deletion)
            let recorded = try sync.priorities(after: anchor == nil ? 0 : after, in: txn)
            if anchor == nil {
                try feed.addCurrentPriorities(
                    of: try storage.allSeriesRecords(in: txn), recorded: recorded.map(\.change)
                ) { try storage.sources?.priority(of: $0.id, in: txn) ?? [] }
            } else {
                feed.priorities = recorded.map(\.change)
            }
            for name in feed.seriesNamed() {
                if let record = records[name] { feed.declare(record) }
            }
            try body(feed.changeSet())
        }
    }

    /// The anchor of the newest commit.
    func changeAnchor() throws -> ChangeAnchor {
        try read { txn in
            guard let state = try storage.sync?.state(in: txn) else {
                throw StoreError.incompatibleFormat(
                    "the store keeps no change log (format 5); open it writable once to migrate it")
            }
            return ChangeAnchor(store: state.store, position: state.lastPosition)
        }
    }

    /// Every source stream of every series, by stream id, with its series' name.
    private func streamsByID<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [UInt32: FeedStream]
    {
        var streams: [UInt32: FeedStream] = [:]
        for record in try storage.allSeriesRecords(in: txn) {
            for stream in try storage.streams(of: record, in: txn) {
                streams[stream.record.id] = FeedStream(
                    series: record.name, source: stream.name, record: stream.record)
            }
        }
        return streams
    }
}

/// A source stream as the feed names it.
struct FeedStream {
    let series: String
    let source: String
    let record: SeriesRecord
}

/// Gathers a change set, one source stream at a time.
private struct FeedBuilder {
    let anchor: ChangeAnchor
    var declarations: [String: ChangeSet.Declaration] = [:]
    var written: [String: ChangeSet.Written] = [:]
    var deletions: [SampleDeletion] = []
    var priorities: [PriorityChange] = []
    /// The series of the source streams the commits after the anchor name.
    var touched: Set<String> = []

    init(anchor: ChangeAnchor) { self.anchor = anchor }

    /// How many samples the part being gathered holds.
    private(set) var sampleCount = 0

    /// The samples gathered so far with their series' declarations (from `records`, by
    /// name), as a part of its own; the builder keeps the rest.
    mutating func takePart(declaring records: [String: SeriesRecord]) -> ChangeSet {
        for name in Set(written.values.map(\.series)) {
            if let record = records[name] { declare(record) }
        }
        let part = ChangeSet(
            anchor: anchor,
            declarations: declarations.values.sorted { $0.series < $1.series },
            written: written.keys.sorted().compactMap { written[$0] })
        written = [:]
        declarations = [:]
        sampleCount = 0
        return part
    }

    mutating func declare(_ record: SeriesRecord) {
        declarations[record.name] = ChangeSet.Declaration(
            series: record.name, unit: record.unit, kind: record.kind)
    }

    /// Adds the samples of `entries` still present in `present` (one day of `stream`'s).
    mutating func add(_ entries: [DayVersions.Entry], present: [Sample], of stream: FeedStream) {
        var index = 0
        for entry in entries {
            while index < present.count
                && (present[index].startMilliseconds, present[index].endMilliseconds)
                    < (entry.start, entry.end)
            {
                index += 1
            }
            guard index < present.count, present[index].startMilliseconds == entry.start,
                present[index].endMilliseconds == entry.end
            else { continue }
            append(present[index], entry.version, entry.id, stream)
        }
    }

    /// Adds every sample of `stream` (all present in its blocks), each with its recorded
    /// version or ``ChangeVersion/unrecorded``; `versions` gives a day's listed entries and
    /// the version of its samples not listed, if the day has one.
    mutating func addAll(
        of stream: FeedStream,
        versions: (StreamDay) throws -> (listed: DayVersions, wholeDay: DayVersions.WholeDay?),
        samples: [Sample], id: UInt32
    ) throws {
        var day = Int64.min
        var dayVersions = (listed: DayVersions(), wholeDay: DayVersions.WholeDay?.none)
        for sample in samples {
            let sampleDay = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
            if sampleDay != day {
                day = sampleDay
                dayVersions = try versions(StreamDay(stream: id, day: day))
            }
            if let entry = dayVersions.listed.entry(
                start: sample.startMilliseconds, end: sample.endMilliseconds)
            {
                append(sample, entry.version, entry.id, stream)
            } else {
                append(sample, dayVersions.wholeDay?.version ?? .unrecorded, nil, stream)
            }
        }
    }

    /// Adds each series' current priority order, with the version recorded for it.
    mutating func addCurrentPriorities(
        of records: [SeriesRecord], recorded: [PriorityChange],
        order: (SeriesRecord) throws -> [String]
    ) throws {
        let versions = Dictionary(recorded.map { ($0.series, $0.version) }) { max($0, $1) }
        for record in records {
            let current = try order(record)
            guard !current.isEmpty || versions[record.name] != nil else { continue }
            priorities.append(
                PriorityChange(
                    series: record.name, order: current,
                    version: versions[record.name] ?? .unrecorded))
        }
    }

    private mutating func append(
        _ sample: Sample, _ version: ChangeVersion, _ id: SampleID?, _ stream: FeedStream
    ) {
        written[
            stream.series + "\u{0}" + stream.source,
            default: ChangeSet.Written(
                series: stream.series, source: stream.source, samples: [], versions: [])
        ]
        .append(sample, version: version, id: id)
        sampleCount += 1
    }

    /// The series the changes name.
    func seriesNamed() -> Set<String> {
        Set(written.values.map(\.series)).union(priorities.map(\.series)).union(touched)
    }

    func changeSet() -> ChangeSet {
        ChangeSet(
            anchor: anchor,
            declarations: declarations.values.sorted { $0.series < $1.series },
            written: written.keys.sorted().compactMap { written[$0] },
            deletions: deletions, priorities: priorities)
    }
}
