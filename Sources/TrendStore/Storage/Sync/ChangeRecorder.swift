import LMDB

/// Records in the change log what one write transaction changes, committed with it: the
/// samples written (their identities, under ``DayVersions``), deletions and priority orders,
/// each under the transaction's feed position, and the store's clock and last position
/// (``SyncState``). A transaction that records nothing leaves the log as it was.
///
/// Local changes take one new version of the store's clock; changes applied from another
/// store keep theirs, and move the clock past them so that a later local change is later.
/// Each commit also forgets a bounded number of the changes older than the retention
/// (``prune(olderThan:in:)``).
struct ChangeRecorder: ~Copyable {
    private let storage: SampleStorage
    private let table: SyncTable
    private let zlib: ZlibCodec
    private let now: Int64
    private var state: SyncState
    private var localVersion: ChangeVersion?
    private var days: [StreamDay: [DayVersions.Entry]] = [:]
    /// The source streams whose samples were noted, by id.
    private var streams: [UInt32: SeriesRecord] = [:]
    private var deletions: [SampleDeletion] = []
    private var priorities: [PriorityChange] = []

    /// The most commit records one commit prunes.
    static let prunedPerCommit = 512

    /// A recorder for a transaction of `storage` at `now` (milliseconds since 1970).
    ///
    /// - Throws: ``StoreError/Code/incompatibleFormat`` for a store without a change log
    ///   (before format 5).
    init<T: ReadableTransaction & ~Copyable>(
        storage: SampleStorage, zlib: ZlibCodec, now: Int64, in txn: borrowing T
    ) throws {
        guard let table = storage.sync, let state = try table.state(in: txn) else {
            throw StoreError.incompatibleFormat("the store keeps no change log (format 5)")
        }
        self.storage = storage
        self.table = table
        self.zlib = zlib
        self.now = now
        self.state = state
    }

    /// The position this transaction's changes are recorded under.
    var position: UInt64 { state.lastPosition + 1 }

    /// The store's id.
    var store: StoreID { state.store }

    /// The version of this transaction's local changes.
    mutating func local() -> ChangeVersion {
        if let localVersion { return localVersion }
        let version = ChangeVersion(
            clock: ChangeVersion.nextClock(after: state.clock, nowMilliseconds: now),
            origin: state.store)
        state.clock = version.clock
        localVersion = version
        return version
    }

    /// Moves the clock past `version`, a change applied from another store.
    mutating func observe(_ version: ChangeVersion) {
        state.clock = max(state.clock, version.clock)
    }

    /// Records that `samples` of the source stream `stream` were written at `version`.
    mutating func noteWritten(_ samples: [Sample], stream: SeriesRecord, version: ChangeVersion) {
        note(samples, stream: stream) { _ in version }
    }

    /// Records that `samples` of the source stream `stream` were written at `version`,
    /// `samples[i]` with the id `ids[i]` (`nil`: none).
    mutating func noteWritten(
        _ samples: [Sample], stream: SeriesRecord, version: ChangeVersion, ids: [SampleID?]
    ) {
        note(samples, stream: stream, id: { ids[$0] }) { _ in version }
    }

    /// Records that `samples` of the source stream `stream` were written, `samples[i]` at
    /// `versions[i]` with the id `ids[i]` (no ids when `ids` is empty).
    mutating func noteWritten(
        _ samples: [Sample], stream: SeriesRecord, versions: [ChangeVersion],
        ids: [SampleID?] = []
    ) {
        note(samples, stream: stream, id: { ids.isEmpty ? nil : ids[$0] }) { versions[$0] }
    }

    /// Records `samples`, each with its version, a run of samples of one day at a time (a
    /// bulk write's samples come in order, so most share the day of the one before).
    private mutating func note(
        _ samples: [Sample], stream record: SeriesRecord, id: (Int) -> SampleID? = { _ in nil },
        version: (Int) -> ChangeVersion
    ) {
        let stream = record.id
        streams[stream] = record
        var index = 0
        while index < samples.count {
            let day = samples[index].startMilliseconds.floorDivided(by: TimeGrid.day)
            let (dayStart, dayEnd) = (day * TimeGrid.day, (day + 1) * TimeGrid.day)
            let runStart = index
            while index < samples.count, samples[index].startMilliseconds >= dayStart,
                samples[index].startMilliseconds < dayEnd
            {
                index += 1
            }
            // Made where they are kept: a run built apart is copied entry by entry.
            let position = self.position
            Self.append(
                runStart..<index, to: &days[StreamDay(stream: stream, day: day), default: []]
            ) {
                DayVersions.Entry(
                    start: samples[$0].startMilliseconds, end: samples[$0].endMilliseconds,
                    version: version($0), position: position, id: id($0))
            }
        }
    }

    /// Appends `entry(i)` for every `i` of `indexes` to `entries`.
    private static func append(
        _ indexes: Range<Int>, to entries: inout [DayVersions.Entry],
        _ entry: (Int) -> DayVersions.Entry
    ) {
        // A day's first run sets its size (a bulk write's day often has no second).
        if entries.isEmpty { entries.reserveCapacity(indexes.count) }
        for index in indexes { entries.append(entry(index)) }
    }

    /// Records that stream `stream` was made in this transaction without a sample (a
    /// declared series): the commit names it on today's UTC day, with no version, so an
    /// incremental feed declares its series.
    mutating func noteDeclared(stream: UInt32) {
        days[StreamDay(stream: stream, day: now.floorDivided(by: TimeGrid.day)), default: []] +=
            []
    }

    mutating func noteDeletion(_ deletion: SampleDeletion) { deletions.append(deletion) }

    mutating func notePriority(_ change: PriorityChange) { priorities.append(change) }

    /// Whether anything was recorded.
    var isEmpty: Bool { days.isEmpty && deletions.isEmpty && priorities.isEmpty }

    /// Writes what was recorded, prunes, and stores the state; nothing when nothing was
    /// recorded.
    consuming func commit(
        retentionMilliseconds: Int64, in txn: borrowing WriteTransaction
    ) throws {
        guard !isEmpty else { return }
        let position = self.position
        // Planned here; encoded on every core (most of a bulk write's cost here); stored
        // here, in key order.
        var sortedDays: [StreamDay: (entries: [DayVersions.Entry], records: SyncTable.DayRecords)] =
            [:]
        var candidates: [StreamDay: [DayVersions.Entry]] = [:]
        for (key, entries) in days where !entries.isEmpty {
            let sorted = Self.sortedUnique(entries)
            let records = try table.dayRecords(of: key, in: txn)
            sortedDays[key] = (sorted, records)
            if records.isEmpty, DayVersions(sorted: sorted).sharedVersion != nil {
                candidates[key] = sorted
            }
        }
        let wholeDays = try WholeDayFinder(storage: storage, zlib: zlib).wholeDays(
            of: candidates, streams: streams, in: txn)
        var writes: [(key: StreamDay, write: SyncTable.VersionWrite)] = []
        for (key, day) in sortedDays.sorted(by: { $0.key < $1.key }) {
            writes.append(
                (
                    key,
                    try table.versionWrite(
                        adding: day.entries, to: key, records: day.records, zlib: zlib,
                        daySamples: { try samples(of: $0, in: txn) },
                        namesWholeDay: { key, versions in
                            candidates[key] != nil
                                ? wholeDays.contains(key)
                                : versions.namesExactly(try samples(of: key, in: txn))
                        }, in: txn)
                ))
        }
        let encoded = try ConcurrentWork.map(writes, minimumShare: 4, state: { ZlibCodec() }) {
            item, zlib in Result { try item.write.encoded(zlib: zlib) }
        }
        for (item, bytes) in zip(writes, encoded) {
            try table.put(item.write, encoded: try bytes.get(), of: item.key, at: position, in: txn)
        }
        try table.putCommit(
            CommitRecord(time: now, days: days.keys.sorted()), at: position, in: txn)
        for (index, deletion) in deletions.enumerated() {
            try table.putDeletion(
                deletion, at: RecordPosition(commit: position, index: UInt32(index)), in: txn)
        }
        if !priorities.isEmpty {
            let series = Set(priorities.map(\.series))
            for old in try table.priorities(after: 0, in: txn)
            where series.contains(old.change.series) {
                try table.removeRecord(deletion: false, at: old.position, in: txn)
            }
            // One order per series and commit: the last noted.
            var last: [String: PriorityChange] = [:]
            for change in priorities { last[change.series] = change }
            for (index, change) in last.values.sorted(by: { $0.series < $1.series }).enumerated() {
                try table.putPriority(
                    change, at: RecordPosition(commit: position, index: UInt32(index)), in: txn)
            }
        }
        state.lastPosition = position
        try prune(olderThan: now - retentionMilliseconds, in: txn)
        try table.putState(state, in: txn)
    }

    /// The samples of `key`'s stream and day (none for a stream this commit noted no sample
    /// of, whose records it does not write).
    private func samples(of key: StreamDay, in txn: borrowing WriteTransaction) throws -> [Sample] {
        guard let record = streams[key.stream] else { return [] }
        return try storage.samples(of: record, onUTCDay: key.day, in: txn, zlib: zlib)
    }

    /// `entries` sorted by identity, the last noted of each identity kept (two parts of one
    /// write may name a sample twice).
    private static func sortedUnique(_ entries: [DayVersions.Entry]) -> [DayVersions.Entry] {
        if entries.indices.dropFirst().allSatisfy({
            DayVersions.precedes(entries[$0 - 1], entries[$0])
        }) {
            return entries
        }
        let order = entries.indices.sorted {
            (entries[$0].start, entries[$0].end, $0) < (entries[$1].start, entries[$1].end, $1)
        }
        var unique: [DayVersions.Entry] = []
        for index in order {
            if let last = unique.last, !DayVersions.precedes(last, entries[index]) {
                unique[unique.count - 1] = entries[index]
            } else {
                unique.append(entries[index])
            }
        }
        return unique
    }

    /// Forgets up to ``prunedPerCommit`` of the commits made before `horizon` with the
    /// deletions and priority orders recorded under them (the versions of samples stay, so
    /// that a late change set is still compared with them); anchors at or before the last
    /// position forgotten then expire.
    private mutating func prune(olderThan horizon: Int64, in txn: borrowing WriteTransaction)
        throws
    {
        var through: UInt64?
        var count = 0
        let current = position
        try table.forEachCommit(after: state.prunedThrough, in: txn) { position, record in
            guard record.time < horizon, count < Self.prunedPerCommit, position < current
            else { return false }
            through = position
            count += 1
            return true
        }
        guard let through else { return }
        try table.removeCommits(through: through, in: txn)
        for (position, _) in try table.deletions(after: 0, in: txn) where position.commit <= through
        {
            try table.removeRecord(deletion: true, at: position, in: txn)
        }
        for (position, _) in try table.priorities(after: 0, in: txn)
        where position.commit <= through {
            try table.removeRecord(deletion: false, at: position, in: txn)
        }
        state.prunedThrough = through
    }
}
