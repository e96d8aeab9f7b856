import Foundation

extension TrendStore {
    /// What the store committed after `anchor`: every sample written (inserted or
    /// replaced) with its version, every deletion and priority order, and the declarations
    /// of the series they name; with `nil`, everything the store holds and remembers.
    ///
    /// Keep the set's ``ChangeSet/anchor`` and ask with it next time. The cost grows with
    /// what changed after the anchor, not with the store. Samples written before the store
    /// kept a change log (format 5) come only from `nil`.
    ///
    /// ```swift
    /// let changes = try await phone.changes(since: anchor)
    /// try await tablet.apply(changes)
    /// anchor = changes.anchor
    /// ```
    ///
    /// - Throws: ``StoreError/Code/foreignAnchor`` for another store's anchor,
    ///   ``StoreError/Code/anchorExpired`` for one older than the change retention
    ///   (``StoreOptions/changeRetentionDays``): ask from `nil` then.
    public nonisolated func changes(since anchor: ChangeAnchor?) throws -> ChangeSet {
        try engine.changes(since: anchor)
    }

    /// The changes ``changes(since:)`` gives, passed to `body` in parts, so that memory stays
    /// bounded whatever the store holds: a new device's first sync of years of minute
    /// samples. Each part holds about `maximumSamples` samples at most (it ends with the
    /// block or day that reaches the bound: at most 32,768 more), with the declarations of
    /// their series; the last part carries the deletions, the priority orders and every other
    /// declaration, and its ``ChangeSet/anchor`` (every part's) is where to ask next time.
    /// The parts apply in any order and do what the whole set does; all are read from one
    /// snapshot. `body` must not write to this store.
    ///
    /// ```swift
    /// try phone.changes(since: nil, maximumSamples: 200_000) { part in
    ///     try upload(try part.encoded())
    /// }
    /// ```
    ///
    /// - Throws: What ``changes(since:)`` throws, what `body` throws (no later part is read),
    ///   and ``StoreError/Code/invalidArgument(_:)`` when `maximumSamples` is below 1.
    public nonisolated func changes(
        since anchor: ChangeAnchor?, maximumSamples: Int, _ body: (ChangeSet) throws -> Void
    ) throws {
        guard maximumSamples >= 1 else {
            throw StoreError.invalidArgument(.range, reason: "parts of at least 1 sample")
        }
        try engine.changes(since: anchor, partSamples: maximumSamples, body)
    }

    /// Applies another store's change set in one transaction, by the conflict rule (the
    /// later version of a sample, deletion or priority order wins; <doc:Syncing>): applying
    /// it again changes nothing, and stores that exchange change sets in any order converge.
    ///
    /// - Returns: What it changed.
    /// - Throws: ``StoreError/Code/damagedChangeSet`` for a set that is not valid (nothing
    ///   is applied), ``StoreError/Code/unitMismatch`` or
    ///   ``StoreError/Code/kindMismatch`` when a series it declares exists
    ///   here otherwise.
    @discardableResult
    public func apply(_ changes: ChangeSet) throws -> ApplySummary {
        try engine.apply(changes)
    }

    /// Applies a change set in batches of about `samplesPerBatch` samples (blocks of 8,192
    /// at least), for tests that kill an apply between batches.
    @discardableResult
    package func apply(_ changes: ChangeSet, samplesPerBatch: Int) throws -> ApplySummary {
        try engine.apply(changes, samplesPerBatch: samplesPerBatch)
    }

    /// Applies a change set and stores `anchor` under `name` in the same transaction: a
    /// store that pulls another's changes keeps there the anchor to ask with next time, so a
    /// kill between the two can neither skip nor repeat a change set.
    @discardableResult
    public func apply(_ changes: ChangeSet, externalAnchor anchor: Data, named name: String)
        throws -> ApplySummary
    {
        try engine.apply(
            changes,
            externalAnchors: [try Self.checkedAnchorName(name): try Self.checkedAnchor(anchor)])
    }

    /// The anchor of the store's newest commit: changes after it are what a store that has
    /// everything until now lacks (a new device that copied this store's data another way).
    public nonisolated func changeAnchor() throws -> ChangeAnchor {
        try engine.changeAnchor()
    }

    /// Writes samples to several series and stores `anchor` under `name` in the same
    /// transaction: both land, or neither. A mirror of HealthKit keeps the archived
    /// `HKQueryAnchor` of the query that produced the samples here, so a kill between the
    /// two can neither lose nor repeat them; read it back with ``externalAnchor(named:)``.
    ///
    /// - Parameters:
    ///   - entries: The samples, per series (none: the anchor alone).
    ///   - anchor: At most 1 MiB; empty bytes remove the name.
    ///   - name: 1 to 255 UTF-8 bytes.
    /// - Throws: What ``write(_:)`` throws; ``StoreError/Code/invalidArgument(_:)`` for a
    ///   name or an anchor out of bounds.
    @discardableResult
    public func write(_ entries: [SeriesSamples], externalAnchor anchor: Data, named name: String)
        throws -> [String: WriteSummary]
    {
        try engine.write(
            entries,
            externalAnchors: [try Self.checkedAnchorName(name): try Self.checkedAnchor(anchor)])
    }

    /// The anchor a write stored under `name` (``write(_:externalAnchor:named:)``), or `nil`.
    public nonisolated func externalAnchor(named name: String) throws -> Data? {
        try engine.externalAnchor(named: name).map { Data($0) }
    }

    /// The bytes of `anchor` when it is at most 1 MiB.
    static func checkedAnchor(_ anchor: Data) throws -> [UInt8] {
        guard anchor.count <= 1 << 20 else {
            throw StoreError.invalidArgument(.externalAnchor, reason: "at most 1 MiB")
        }
        return Array(anchor)
    }

    /// `name` when it is a valid anchor name.
    static func checkedAnchorName(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 255 else {
            throw StoreError.invalidArgument(
                .externalAnchor, reason: "a name of 1 to 255 UTF-8 bytes")
        }
        return name
    }
}
