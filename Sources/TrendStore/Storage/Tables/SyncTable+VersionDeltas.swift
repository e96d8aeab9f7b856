import LMDB

/// The versions of a day's samples as a base record (`0x02 ‖ stream ‖ day`, ``DayVersions``)
/// and the records later commits added to it (`0x06 ‖ stream ‖ day ‖ position`, each a
/// ``DayVersions`` of the samples of one or more commits, the newest at `position`), read
/// together, the later over the earlier.
///
/// A commit into a day that holds many samples (a watch's heart rate: 17,280 a day; a 1 Hz
/// stream: 86,400) writes a small record of its own instead of encoding the day's again. When
/// the day has ``maximumDeltas`` of them, the commit merges them into one; only when that one
/// would hold more than a ``deltaShareOfBase``-th of the base's entries does it fold them into
/// the base. So a commit re-encodes at most a sixteenth of a large day, and the base, whose
/// cost grows with the day, is written again once in thousands of small commits instead of
/// once in 32.
///
/// A new base whose entries share one version and name exactly the day's samples is stored
/// without their identities (layout 4, `DayVersions+WholeDay.swift`); reading one takes the
/// day's samples (`daySamples`), and a deletion lists its identities first
/// (``listWholeDayVersions(ofStream:starts:daySamples:zlib:in:)``).
extension SyncTable {
    /// The samples a source stream holds on a UTC day, sorted by start, then end: what a
    /// record of layout 4 gives its version to.
    typealias DaySamples = (StreamDay) throws -> [Sample]

    /// The most records a day's base may have beside it.
    static let maximumDeltas = 32

    /// The deltas of a day are merged into one while they hold at most one entry for every
    /// this many of the base's, and folded into the base beyond that.
    static let deltaShareOfBase = 16

    /// What a commit writes for one day's versions.
    enum VersionWrite: Sendable {
        /// A new base holding every version of the day, replacing the base and its deltas.
        case base(DayVersions, replacing: [[UInt8]])
        /// A new base as `base`, whose entries share one version and name exactly the day's
        /// samples: stored without their identities (layout 4).
        case wholeDayBase(DayVersions, replacing: [[UInt8]])
        /// A delta of the commit's versions beside the base.
        case delta(DayVersions)
        /// One delta holding the versions of the day's deltas and the commit's, replacing
        /// those deltas.
        case mergedDelta(DayVersions, replacing: [[UInt8]])
    }

    /// The versions of `key`'s samples (empty when none are recorded); with `after`, a
    /// base record whose runs hold no later position is not decoded (its entries are not
    /// among those given then: a feed asks for the entries after a position).
    func dayVersions<T: ReadableTransaction & ~Copyable>(
        _ key: StreamDay, zlib: ZlibCodec, after: UInt64? = nil, daySamples: DaySamples,
        in txn: borrowing T
    ) throws -> DayVersions {
        let base = Self.key(key)
        let skipsBase =
            try after.flatMap { after in
                try table.withValue(forKey: base, in: txn) {
                    DayVersions.newestPosition(in: $0).map { $0 <= after }
                } ?? nil
            } ?? false
        var versions =
            skipsBase
            ? DayVersions()
            : try decoded(base, key, zlib: zlib, daySamples: daySamples, in: txn) ?? DayVersions()
        for delta in try deltaKeys(of: key, in: txn) {
            if let added = try decoded(delta, key, zlib: zlib, daySamples: daySamples, in: txn) {
                versions.record(sorted: added.entries)
            }
        }
        return versions
    }

    /// The versions of `key`'s samples as a reader of samples present in the blocks needs
    /// them, without reading the day's samples: the entries listed, and for a base of layout
    /// 4 its version, which every present sample the entries do not list has.
    func versionsOfPresentSamples<T: ReadableTransaction & ~Copyable>(
        _ key: StreamDay, zlib: ZlibCodec, in txn: borrowing T
    ) throws -> (listed: DayVersions, wholeDay: DayVersions.WholeDay?) {
        var listed = DayVersions()
        var wholeDay: DayVersions.WholeDay?
        switch try stored(Self.key(key), key, zlib: zlib, in: txn) {
        case .listed(let versions): listed = versions
        case .wholeDay(let version): wholeDay = version
        case nil: break
        }
        for delta in try deltaKeys(of: key, in: txn) {
            if let added = try decoded(delta, key, zlib: zlib, daySamples: { _ in [] }, in: txn) {
                listed.record(sorted: added.entries)
            }
        }
        return (listed, wholeDay)
    }

    /// What to write to add `entries` (sorted, of one commit) to `key`'s versions: a delta;
    /// when the day has ``maximumDeltas`` deltas, one delta merging them, or a new base when
    /// that would exceed ``deltaShareOfBase``; a new base when the day has none yet (of
    /// layout 4 when its entries share one version and `namesWholeDay` says they are the
    /// day's samples after the commit). `daySamples` gives a day's samples after the commit.
    /// `records` are the day's records as ``dayRecords(of:in:)`` read them in `txn`.
    func versionWrite<T: ReadableTransaction & ~Copyable>(
        adding entries: [DayVersions.Entry], to key: StreamDay, records: DayRecords,
        zlib: ZlibCodec, daySamples: DaySamples,
        namesWholeDay: (StreamDay, DayVersions) throws -> Bool, in txn: borrowing T
    ) throws -> VersionWrite {
        let deltas = records.deltas
        let base = Self.key(key)
        let hasBase = records.hasBase
        if hasBase && deltas.count < Self.maximumDeltas {
            return .delta(DayVersions(sorted: entries))
        }
        var merged = DayVersions()
        for delta in deltas {
            if let added = try decoded(delta, key, zlib: zlib, daySamples: daySamples, in: txn) {
                merged.record(sorted: added.entries)
            }
        }
        merged.record(sorted: entries)
        // Counted from the base's runs, only here (a base of layout 1 has no count, and is
        // written again).
        if hasBase,
            let baseEntries = try table.withValue(
                forKey: base, in: txn, { DayVersions.entryCount(in: $0) }) ?? nil,
            merged.entries.count * Self.deltaShareOfBase <= baseEntries
        {
            return .mergedDelta(merged, replacing: deltas)
        }
        var versions =
            try decoded(base, key, zlib: zlib, daySamples: daySamples, in: txn) ?? DayVersions()
        versions.record(sorted: merged.entries)
        if versions.sharedVersion != nil, try namesWholeDay(key, versions) {
            return .wholeDayBase(versions, replacing: deltas)
        }
        return .base(versions, replacing: deltas)
    }

    /// Writes `write`, encoded as `bytes`, for `key`, a commit at `position`.
    func put(
        _ write: VersionWrite, encoded bytes: [UInt8], of key: StreamDay, at position: UInt64,
        in txn: borrowing WriteTransaction
    ) throws {
        let deltaKey =
            Self.key(key, kind: .versionDelta)
            + withUnsafeBytes(of: position.bigEndian) { Array($0) }
        switch write {
        case .base(_, let replaced), .wholeDayBase(_, let replaced):
            for delta in replaced { try table.delete(forKey: delta, in: txn) }
            try table.put(bytes, forKey: Self.key(key), in: txn)
        case .delta:
            try table.put(bytes, forKey: deltaKey, in: txn)
        case .mergedDelta(_, let replaced):
            for delta in replaced { try table.delete(forKey: delta, in: txn) }
            try table.put(bytes, forKey: deltaKey, in: txn)
        }
    }

    /// Removes the versions of every day of `stream`, deltas too.
    func removeVersions(ofStream stream: UInt32, in txn: borrowing WriteTransaction) throws {
        for kind in [Kind.dayVersions, .versionDelta] {
            let prefix = [kind.rawValue] + withUnsafeBytes(of: stream.bigEndian) { Array($0) }
            for key in try table.keys(prefix: prefix, in: txn) {
                try table.delete(forKey: key, in: txn)
            }
        }
    }

    /// The records of a day's versions: whether it has a base, and its deltas' keys.
    struct DayRecords {
        let hasBase: Bool
        let deltas: [[UInt8]]

        /// Whether the day has no record of versions.
        var isEmpty: Bool { !hasBase && deltas.isEmpty }
    }

    /// The records of `key`'s day.
    func dayRecords<T: ReadableTransaction & ~Copyable>(
        of key: StreamDay, in txn: borrowing T
    ) throws -> DayRecords {
        DayRecords(
            hasBase: try table.withValue(forKey: Self.key(key), in: txn) { _ in true } ?? false,
            deltas: try deltaKeys(of: key, in: txn))
    }

    private func deltaKeys<T: ReadableTransaction & ~Copyable>(
        of key: StreamDay, in txn: borrowing T
    ) throws -> [[UInt8]] {
        try table.keys(prefix: Self.key(key, kind: .versionDelta), in: txn)
    }

    /// Lists the identities of every record of layout 4 of `stream` on the UTC days of
    /// `starts` (as layout 2), before samples starting there leave the blocks: a record of
    /// layout 4 names the day's samples, and a sample removed keeps its version.
    func listWholeDayVersions(
        ofStream stream: UInt32, starts: Range<Int64>, daySamples: DaySamples, zlib: ZlibCodec,
        in txn: borrowing WriteTransaction
    ) throws {
        guard !starts.isEmpty else { return }
        let first = Self.key(
            StreamDay(stream: stream, day: starts.lowerBound.floorDivided(by: TimeGrid.day)))
        let last = Self.key(
            StreamDay(stream: stream, day: (starts.upperBound - 1).floorDivided(by: TimeGrid.day)))
        // The days are read from the keys of this stream's records (the range's first and
        // last bound the walk).
        var wholeDays: [StreamDay] = []
        try table.forEach(from: first, in: txn) { key, value in
            guard !last.lexicographicallyPrecedes(key), key.count == first.count else {
                return false
            }
            if value.first == DayVersions.wholeDayLayout {
                wholeDays.append(Self.streamDay(ofKey: key))
            }
            return true
        }
        for day in wholeDays {
            let stored = Self.key(day)
            guard
                let versions = try decoded(
                    stored, day, zlib: zlib, daySamples: daySamples, in: txn)
            else { continue }
            try table.put(try versions.encoded(zlib: zlib), forKey: stored, in: txn)
        }
    }

    /// A stored record of sample versions: its entries, or (layout 4) the one version of its
    /// day's samples.
    private enum Stored {
        case listed(DayVersions)
        case wholeDay(DayVersions.WholeDay)
    }

    /// The record under `stored` (of `key`'s day), with the identities of a record of layout
    /// 4 taken from `daySamples`; `nil` when there is none.
    private func decoded<T: ReadableTransaction & ~Copyable>(
        _ stored: [UInt8], _ key: StreamDay, zlib: ZlibCodec, daySamples: DaySamples,
        in txn: borrowing T
    ) throws -> DayVersions? {
        switch try self.stored(stored, key, zlib: zlib, in: txn) {
        case nil: return nil
        case .listed(let versions): return versions
        case .wholeDay(let wholeDay): return DayVersions(wholeDay, identities: try daySamples(key))
        }
    }

    /// The record under `stored` (of `key`'s day) as stored; `nil` when there is none.
    private func stored<T: ReadableTransaction & ~Copyable>(
        _ stored: [UInt8], _ key: StreamDay, zlib: ZlibCodec, in txn: borrowing T
    ) throws -> Stored? {
        let versions = try table.withValue(forKey: stored, in: txn) { bytes in
            Result<Stored, DeflatedBytes.Damage> { () throws(DeflatedBytes.Damage) -> Stored in
                if let wholeDay = try DayVersions.wholeDay(in: bytes) { return .wholeDay(wholeDay) }
                return .listed(try DayVersions(bytes: bytes, zlib: zlib))
            }
        }
        switch versions {
        case .none: return nil
        case .some(.success(let stored)): return stored
        case .some(.failure(let damage)):
            throw damaged("stream \(key.stream), day \(key.day)", damage.description)
        }
    }
}

extension SyncTable.VersionWrite {
    /// The versions to encode.
    var versions: DayVersions {
        switch self {
        case .base(let versions, _), .wholeDayBase(let versions, _), .delta(let versions),
            .mergedDelta(let versions, _):
            versions
        }
    }

    /// The stored bytes.
    func encoded(zlib: ZlibCodec) throws -> [UInt8] {
        if case .wholeDayBase(let versions, _) = self { return versions.encodedAsWholeDay() }
        return try versions.encoded(zlib: zlib)
    }
}
