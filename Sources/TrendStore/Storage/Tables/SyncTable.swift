import LMDB

/// The `sync` database (format 5): the store's change log, what
/// ``TrendStore/changes(since:)`` reads and an applied change set is compared with. Keys
/// begin with a kind byte: `0x00` the ``SyncState``; `0x01 ‖ position` a ``CommitRecord``;
/// `0x02 ‖ stream id ‖ day` (big-endian, the day's sign bit flipped) a ``DayVersions``;
/// `0x03 ‖ position ‖ index` a ``SampleDeletion``; `0x04 ‖ position ‖ index` a
/// ``PriorityChange``; `0x05` the host's ``ExternalAnchors``; `0x06 ‖ stream id ‖ day ‖
/// position` the versions one commit added to a day's (`SyncTable+VersionDeltas.swift`);
/// `0x07 ‖ series id ‖ sample id` the sample an id names (format 8,
/// `SyncTable+SampleIDs.swift`). Positions are 8 bytes and
/// indexes (the record's place among those of its commit) 4, big-endian. Keys hold ids and
/// positions only, so no name is stored outside a (sealed) value; an encrypted store keeps
/// a sample id there blinded.
struct SyncTable: StoredTable {
    let table: RawTable
    /// The database's name.
    static let name = "sync"

    enum Kind: UInt8 {
        case state = 0, commit, dayVersions, deletion, priority, externalAnchors, versionDelta
        case sampleID
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { table }

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        table = try RawTable(named: Self.name, in: environment, sealer: sealer)
    }

    // MARK: State

    /// The store's sync state; `nil` before format 5 recorded one.
    func state<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> SyncState? {
        let state = try table.withValue(forKey: [Kind.state.rawValue], in: txn) {
            SyncState(bytes: $0)
        }
        switch state {
        case .none: return nil
        case .some(.none): throw damaged("state", "not a sync state")
        case .some(.some(let state)): return state
        }
    }

    func putState(_ state: SyncState, in txn: borrowing WriteTransaction) throws {
        try table.put(state.encoded(), forKey: [Kind.state.rawValue], in: txn)
    }

    // MARK: Commits

    func putCommit(
        _ record: CommitRecord, at position: UInt64, in txn: borrowing WriteTransaction
    ) throws {
        try table.put(record.encoded(), forKey: Self.key(.commit, position), in: txn)
    }

    /// Calls `body(position, record)` for each commit after `position`, in order, until it
    /// returns `false`.
    func forEachCommit<T: ReadableTransaction & ~Copyable>(
        after position: UInt64, in txn: borrowing T,
        _ body: (UInt64, CommitRecord) throws -> Bool
    ) throws {
        try forEach(.commit, after: position, in: txn) { position, bytes in
            guard let record = CommitRecord(bytes: bytes) else {
                throw damaged("commit \(position)", "not a commit record")
            }
            return try body(position, record)
        }
    }

    // MARK: Deletions and priority orders

    func putDeletion(
        _ deletion: SampleDeletion, at position: RecordPosition, in txn: borrowing WriteTransaction
    ) throws {
        var writer = ByteWriter(capacity: 64)
        deletion.encode(into: &writer)
        try table.put(writer.bytes, forKey: Self.key(.deletion, position), in: txn)
    }

    /// The deletions recorded after `position`, with their positions, in order.
    func deletions<T: ReadableTransaction & ~Copyable>(
        after position: UInt64, in txn: borrowing T
    ) throws -> [(position: RecordPosition, deletion: SampleDeletion)] {
        var found: [(RecordPosition, SampleDeletion)] = []
        try forEachRecord(.deletion, after: position, in: txn) { position, bytes in
            var reader = ByteReader(bytes)
            guard let deletion = try? SampleDeletion(from: &reader), reader.remaining == 0 else {
                throw damaged("deletion \(position)", "not a deletion record")
            }
            found.append((position, deletion))
            return true
        }
        return found
    }

    func putPriority(
        _ change: PriorityChange, at position: RecordPosition, in txn: borrowing WriteTransaction
    ) throws {
        var writer = ByteWriter(capacity: 64)
        change.encode(into: &writer)
        try table.put(writer.bytes, forKey: Self.key(.priority, position), in: txn)
    }

    /// The priority orders recorded after `position`, with their positions, in order.
    func priorities<T: ReadableTransaction & ~Copyable>(
        after position: UInt64, in txn: borrowing T
    ) throws -> [(position: RecordPosition, change: PriorityChange)] {
        var found: [(RecordPosition, PriorityChange)] = []
        try forEachRecord(.priority, after: position, in: txn) { position, bytes in
            var reader = ByteReader(bytes)
            guard let change = try? PriorityChange(from: &reader), reader.remaining == 0 else {
                throw damaged("priority \(position)", "not a priority record")
            }
            found.append((position, change))
            return true
        }
        return found
    }

    /// Removes the deletion or priority order recorded at `position`.
    func removeRecord(
        deletion: Bool, at position: RecordPosition, in txn: borrowing WriteTransaction
    ) throws {
        try table.delete(forKey: Self.key(deletion ? .deletion : .priority, position), in: txn)
    }

    /// Removes the commit records at or before `position`.
    func removeCommits(through position: UInt64, in txn: borrowing WriteTransaction) throws {
        var doomed: [[UInt8]] = []
        try forEach(.commit, after: 0, in: txn) { found, _ in
            guard found <= position else { return false }
            doomed.append(Self.key(.commit, found))
            return true
        }
        for key in doomed { try table.delete(forKey: key, in: txn) }
    }

    // MARK: External anchors

    func externalAnchors<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> ExternalAnchors
    {
        let anchors = try table.withValue(forKey: [Kind.externalAnchors.rawValue], in: txn) {
            ExternalAnchors(bytes: $0)
        }
        switch anchors {
        case .none: return ExternalAnchors()
        case .some(.none): throw damaged("external anchors", "not a list of anchors")
        case .some(.some(let anchors)): return anchors
        }
    }

    func putExternalAnchors(_ anchors: ExternalAnchors, in txn: borrowing WriteTransaction)
        throws
    {
        try table.put(anchors.encoded(), forKey: [Kind.externalAnchors.rawValue], in: txn)
    }

    // MARK: Keys

    private func forEach<T: ReadableTransaction & ~Copyable>(
        _ kind: Kind, after position: UInt64, in txn: borrowing T,
        _ body: (UInt64, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        guard position < .max else { return }
        try table.forEach(from: Self.key(kind, position + 1), in: txn) { key, value in
            guard key.count == 9, key[0] == kind.rawValue else { return false }
            return try body(key.bigEndian(at: 1, as: UInt64.self), value)
        }
    }

    /// Calls `body` for each record of `kind` (a deletion or a priority order) of a commit
    /// after `position`, in order, until it returns `false`.
    private func forEachRecord<T: ReadableTransaction & ~Copyable>(
        _ kind: Kind, after position: UInt64, in txn: borrowing T,
        _ body: (RecordPosition, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        guard position < .max else { return }
        let start = Self.key(kind, RecordPosition(commit: position + 1, index: 0))
        try table.forEach(from: start, in: txn) { key, value in
            guard key.count == 13, key[0] == kind.rawValue else { return false }
            let found = RecordPosition(
                commit: key.bigEndian(at: 1, as: UInt64.self),
                index: key.bigEndian(at: 9, as: UInt32.self))
            return try body(found, value)
        }
    }

    private static func key(_ kind: Kind, _ position: RecordPosition) -> [UInt8] {
        key(kind, position.commit) + withUnsafeBytes(of: position.index.bigEndian) { Array($0) }
    }

    private static func key(_ kind: Kind, _ position: UInt64) -> [UInt8] {
        [kind.rawValue] + withUnsafeBytes(of: position.bigEndian) { Array($0) }
    }

    /// The stream and day a key made by ``key(_:kind:)`` names (at least 13 bytes).
    static func streamDay(ofKey key: UnsafeRawBufferPointer) -> StreamDay {
        StreamDay(
            stream: key.bigEndian(at: 1, as: UInt32.self),
            day: Int64(bitPattern: key.bigEndian(at: 5, as: UInt64.self) ^ 1 << 63))
    }

    static func key(_ day: StreamDay, kind: Kind = .dayVersions) -> [UInt8] {
        [kind.rawValue] + withUnsafeBytes(of: day.stream.bigEndian) { Array($0) }
            + withUnsafeBytes(of: (UInt64(bitPattern: day.day) ^ 1 << 63).bigEndian) { Array($0) }
    }

    func damaged(_ record: String, _ reason: String) -> StoreError {
        .damagedRecord(table: Self.name, record: record, reason: reason)
    }
}

/// Where a deletion or a priority order is kept: its commit's position and its place among
/// that commit's records of its kind.
struct RecordPosition: Hashable, Sendable {
    let commit: UInt64
    let index: UInt32
}
