import LMDB

/// The versions of a day's samples as a base record (`0x02 ‖ stream ‖ day`, ``DayVersions``)
/// and the records later commits added to it (`0x06 ‖ stream ‖ day ‖ position`, each a
/// ``DayVersions`` of that commit's samples), read together, the later over the earlier. A
/// commit into a day that holds many samples (a watch's heart rate: 17,280 a day) writes a
/// small record of its own instead of encoding the day's again; every
/// ``maximumDeltas``-th folds them into the base.
extension SyncTable {
    /// The most records a day's base may have beside it.
    static let maximumDeltas = 32

    /// What a commit writes for one day's versions.
    enum VersionWrite: Sendable {
        /// A new base holding every version of the day, replacing the base and its deltas.
        case base(DayVersions, replacing: [[UInt8]])
        /// A delta of the commit's versions beside the base.
        case delta(DayVersions)
    }

    /// The versions of `key`'s samples (empty when none are recorded); with `after`, a
    /// base record whose runs hold no later position is not decoded (its entries are not
    /// among those given then: a feed asks for the entries after a position).
    func dayVersions<T: ReadableTransaction & ~Copyable>(
        _ key: StreamDay, zlib: ZlibCodec, after: UInt64? = nil, in txn: borrowing T
    ) throws -> DayVersions {
        let base = Self.key(key)
        let skipsBase =
            try after.flatMap { after in
                try table.withValue(forKey: base, in: txn) {
                    DayVersions.newestPosition(in: $0).map { $0 <= after }
                } ?? nil
            } ?? false
        var versions =
            skipsBase ? DayVersions() : try decoded(base, key, zlib: zlib, in: txn) ?? DayVersions()
        for delta in try deltaKeys(of: key, in: txn) {
            if let added = try decoded(delta, key, zlib: zlib, in: txn) {
                versions.record(sorted: added.entries)
            }
        }
        return versions
    }

    /// What to write to add `entries` (sorted, of one commit) to `key`'s versions: a delta,
    /// or a new base when the day has none yet or has ``maximumDeltas`` deltas.
    func versionWrite<T: ReadableTransaction & ~Copyable>(
        adding entries: [DayVersions.Entry], to key: StreamDay, zlib: ZlibCodec,
        in txn: borrowing T
    ) throws -> VersionWrite {
        let deltas = try deltaKeys(of: key, in: txn)
        let hasBase = try table.withValue(forKey: Self.key(key), in: txn) { _ in true } ?? false
        guard !hasBase || deltas.count >= Self.maximumDeltas else {
            return .delta(DayVersions(sorted: entries))
        }
        var versions = try dayVersions(key, zlib: zlib, in: txn)
        versions.record(sorted: entries)
        return .base(versions, replacing: deltas)
    }

    /// Writes `write`, encoded as `bytes`, for `key`, a commit at `position`.
    func put(
        _ write: VersionWrite, encoded bytes: [UInt8], of key: StreamDay, at position: UInt64,
        in txn: borrowing WriteTransaction
    ) throws {
        switch write {
        case .base(_, let replaced):
            for delta in replaced { try table.delete(forKey: delta, in: txn) }
            try table.put(bytes, forKey: Self.key(key), in: txn)
        case .delta:
            try table.put(
                bytes,
                forKey: Self.key(key, kind: .versionDelta)
                    + withUnsafeBytes(of: position.bigEndian) { Array($0) }, in: txn)
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

    private func deltaKeys<T: ReadableTransaction & ~Copyable>(
        of key: StreamDay, in txn: borrowing T
    ) throws -> [[UInt8]] {
        try table.keys(prefix: Self.key(key, kind: .versionDelta), in: txn)
    }

    private func decoded<T: ReadableTransaction & ~Copyable>(
        _ stored: [UInt8], _ key: StreamDay, zlib: ZlibCodec, in txn: borrowing T
    ) throws -> DayVersions? {
        let versions = try table.withValue(forKey: stored, in: txn) { bytes in
            Result { () throws(DeflatedBytes.Damage) in try DayVersions(bytes: bytes, zlib: zlib) }
        }
        switch versions {
        case .none: return nil
        case .some(.success(let versions)): return versions
        case .some(.failure(let damage)):
            throw damaged("stream \(key.stream), day \(key.day)", damage.description)
        }
    }
}

extension SyncTable.VersionWrite {
    /// The versions to encode.
    var versions: DayVersions {
        switch self {
        case .base(let versions, _), .delta(let versions): versions
        }
    }
}
