import Foundation
import LMDB

/// The change log's part in every write transaction (``ChangeRecorder``) and the host's
/// external anchors kept beside it.
extension StoreEngine {
    /// A recorder for the write transaction `txn`.
    func changeRecorder(zlib: ZlibCodec, in txn: borrowing WriteTransaction) throws
        -> ChangeRecorder
    {
        try ChangeRecorder(
            storage: storage, zlib: zlib, now: clock().millisecondsSince1970, in: txn)
    }

    /// Writes what `recorder` recorded, in `txn`.
    func commit(_ recorder: consuming ChangeRecorder, in txn: borrowing WriteTransaction) throws {
        try recorder.commit(
            retentionMilliseconds: Int64(changeRetentionDays) * TimeGrid.day, in: txn)
    }

    /// The end of every write transaction that changes samples: the rollup rows flushed, the
    /// today caches computed again, `externalAnchors` stored, what `log` recorded written.
    func finishWrite(
        _ log: consuming ChangeRecorder, rows: RowWrites, removedToday: [RemovedToday],
        externalAnchors: [String: [UInt8]] = [:], in txn: borrowing WriteTransaction
    ) throws {
        try rows.flush(in: txn)
        try caches.rewrite(removedToday, now: clock(), queries: queries, in: txn)
        try storeExternalAnchors(externalAnchors, in: txn)
        try commit(log, in: txn)
    }

    /// Lists the identities of the records of sample versions of the source stream `stream`
    /// that name the day's samples without them (layout 4), on the UTC days of `starts`:
    /// called before samples starting in `starts` are removed, whose versions stay.
    func listWholeDayVersions(
        of stream: SeriesRecord, starts: Range<Int64>, zlib: ZlibCodec,
        in txn: borrowing WriteTransaction
    ) throws {
        try storage.sync?.listWholeDayVersions(
            ofStream: stream.id, starts: starts,
            daySamples: { try storage.samples(of: stream, onUTCDay: $0.day, in: txn, zlib: zlib) },
            zlib: zlib, in: txn)
    }

    /// Forgets the versions and ids of every sample of `record`'s sources (the series is going).
    func forgetVersions(of record: SeriesRecord, in txn: borrowing WriteTransaction) throws {
        guard let sync = storage.sync else { return }
        for stream in try storage.streams(of: record, in: txn) {
            try sync.removeVersions(ofStream: stream.record.id, in: txn)
        }
        try sync.removeSampleIDs(ofSeries: record.id, in: txn)
    }

    /// Stores `anchors` (name → bytes; empty bytes remove the name) beside the others.
    func storeExternalAnchors(_ anchors: [String: [UInt8]], in txn: borrowing WriteTransaction)
        throws
    {
        guard !anchors.isEmpty else { return }
        guard let sync = storage.sync else {
            throw StoreError.incompatibleFormat("the store keeps no change log (format 5)")
        }
        var stored = try sync.externalAnchors(in: txn)
        for (name, value) in anchors { stored.values[name] = value.isEmpty ? nil : value }
        try sync.putExternalAnchors(stored, in: txn)
    }

    /// The bytes stored under `name` by a write, or `nil`.
    func externalAnchor(named name: String) throws -> [UInt8]? {
        try read { txn in try storage.sync?.externalAnchors(in: txn).values[name] }
    }
}
