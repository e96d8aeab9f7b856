import LMDB

/// Which sample each ``SampleID`` of a series names (format 8): `0x07 ‖ series id
/// (UInt32 BE) ‖ the id` (in an encrypted store the id's ``ValueSealer/blind(_:)``) →
/// the stream id (UInt32), start and end (Int64 each), little-endian.
///
/// The id of a sample itself is kept with its version (``DayVersions/Entry/id``); this index
/// only finds it. An entry may outlive its sample (deleted by range, or written again with
/// another id): a reader checks it against the sample's versions before trusting it.
extension SyncTable {
    /// The sample `id` named when last written to series `series`.
    struct SampleIDTarget: Equatable, Sendable {
        let stream: UInt32
        let start: Int64
        let end: Int64
    }

    /// Records that `id` of series `series` names `target`.
    func putSampleID(
        _ id: SampleID, series: UInt32, target: SampleIDTarget, in txn: borrowing WriteTransaction
    ) throws {
        var writer = ByteWriter(capacity: 20)
        writer.appendLittleEndian(target.stream)
        writer.appendLittleEndian(target.start)
        writer.appendLittleEndian(target.end)
        try table.put(writer.bytes, forKey: key(id, series: series), in: txn)
    }

    /// The sample `id` of series `series` named when last written; `nil` when none.
    func sampleIDTarget<T: ReadableTransaction & ~Copyable>(
        _ id: SampleID, series: UInt32, in txn: borrowing T
    ) throws -> SampleIDTarget? {
        let target = try table.withValue(forKey: key(id, series: series), in: txn) { bytes in
            var reader = ByteReader(bytes)
            guard bytes.count == 20, let stream = try? reader.readLittleEndian(UInt32.self),
                let start = try? reader.readLittleEndian(Int64.self),
                let end = try? reader.readLittleEndian(Int64.self), end >= start, start < .max
            else { return SampleIDTarget?.none }
            return SampleIDTarget(stream: stream, start: start, end: end)
        }
        switch target {
        case .none: return nil
        case .some(.none): throw damaged("sample id \(id)", "not a sample's place")
        case .some(.some(let target)): return target
        }
    }

    /// Forgets `id` of series `series`.
    func removeSampleID(_ id: SampleID, series: UInt32, in txn: borrowing WriteTransaction)
        throws
    {
        _ = try table.delete(forKey: key(id, series: series), in: txn)
    }

    /// Forgets every id of series `series`.
    func removeSampleIDs(ofSeries series: UInt32, in txn: borrowing WriteTransaction) throws {
        let prefix = [Kind.sampleID.rawValue] + withUnsafeBytes(of: series.bigEndian) { Array($0) }
        for key in try table.keys(prefix: prefix, in: txn) {
            _ = try table.delete(forKey: key, in: txn)
        }
    }

    private func key(_ id: SampleID, series: UInt32) -> [UInt8] {
        [Kind.sampleID.rawValue] + withUnsafeBytes(of: series.bigEndian) { Array($0) }
            + (table.sealer.map { $0.blind(id.bytes) } ?? id.bytes)
    }
}
