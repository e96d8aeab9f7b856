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
    private let table: SyncTable
    private let zlib: ZlibCodec
    private let now: Int64
    private var state: SyncState
    private var localVersion: ChangeVersion?
    private var days: [StreamDay: [DayVersions.Entry]] = [:]
    private var deletions: [SampleDeletion] = []
    private var priorities: [PriorityChange] = []

    /// The most commit records one commit prunes.
    static let prunedPerCommit = 512

    /// A recorder for a transaction of the store whose change log is `table`, at `now`
    /// (milliseconds since 1970).
    ///
    /// - Throws: ``StoreError/incompatibleFormat(_:)`` for a store without a change log
    ///   (before format 5).
    init<T: ReadableTransaction & ~Copyable>(
        table: SyncTable?, zlib: ZlibCodec, now: Int64, in txn: borrowing T
    ) throws {
        guard let table, let state = try table.state(in: txn) else {
            throw StoreError.incompatibleFormat("the store keeps no change log (format 5)")
        }
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

    /// Records that `samples` of stream `stream` were written at `version`.
    mutating func noteWritten(_ samples: [Sample], stream: UInt32, version: ChangeVersion) {
        for sample in samples { note(sample, stream: stream, version: version) }
    }

    /// Records that `samples` of stream `stream` were written, `samples[i]` at `versions[i]`.
    mutating func noteWritten(_ samples: [Sample], stream: UInt32, versions: [ChangeVersion]) {
        for (sample, version) in zip(samples, versions) {
            note(sample, stream: stream, version: version)
        }
    }

    private mutating func note(_ sample: Sample, stream: UInt32, version: ChangeVersion) {
        let key = StreamDay(
            stream: stream, day: sample.startMilliseconds.floorDivided(by: TimeGrid.day))
        days[key, default: []].append(
            DayVersions.Entry(
                start: sample.startMilliseconds, end: sample.endMilliseconds, version: version,
                position: position))
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
        for (key, entries) in days {
            var versions = try table.dayVersions(key, zlib: zlib, in: txn)
            versions.record(sorted: entries.sorted { ($0.start, $0.end) < ($1.start, $1.end) })
            try table.putDayVersions(versions, of: key, zlib: zlib, in: txn)
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
