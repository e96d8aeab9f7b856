import LMDB

/// The integrity check's reading of the change log: every record decoded once.
extension SyncTable {
    /// Decodes every record of the change log: the state, the commits, the deletions and
    /// priority orders, the external anchors, the sample versions and the index of sample
    /// ids. Of each kind, the
    /// first record that is not one is added to `found`
    /// (``StoreError/Code/damagedRecord``) and ends that kind's walk; the
    /// other kinds are still read.
    ///
    /// - Returns: How many records were read.
    /// - Throws: What LMDB or an encrypted store's unopenable value throws.
    func check<T: ReadableTransaction & ~Copyable>(
        zlib: ZlibCodec, in txn: borrowing T, damaged found: inout [StoreError]
    ) throws -> Int {
        var count = 0
        func reading(_ body: () throws -> Int) throws {
            do {
                count += try body()
            } catch let error as StoreError {
                found.append(error)
            }
        }
        try reading { try state(in: txn) == nil ? 0 : 1 }
        try reading {
            var commits = 0
            try forEachCommit(after: 0, in: txn) { _, _ in
                commits += 1
                return true
            }
            return commits
        }
        try reading { try deletions(after: 0, in: txn).count }
        try reading { try priorities(after: 0, in: txn).count }
        try reading { try externalAnchors(in: txn).values.isEmpty ? 0 : 1 }
        for kind in [Kind.dayVersions, .versionDelta] {
            try reading { try versionRecords(of: kind, zlib: zlib, in: txn) }
        }
        try reading { try sampleIDEntries(in: txn) }
        return count
    }

    /// Checks that every entry of the index of sample ids names a sample's place
    /// (`SyncTable+SampleIDs.swift`).
    private func sampleIDEntries<T: ReadableTransaction & ~Copyable>(in txn: borrowing T)
        throws -> Int
    {
        var count = 0
        try table.forEach(from: [Kind.sampleID.rawValue], in: txn) { key, value in
            guard key.first == Kind.sampleID.rawValue else { return false }
            count += 1
            var reader = ByteReader(value, offset: 4)
            guard key.count > 5, value.count == 20,
                let start = try? reader.readLittleEndian(Int64.self),
                let end = try? reader.readLittleEndian(Int64.self), end >= start, start < .max
            else { throw damaged("sample id entry \(count)", "not a sample's place") }
            return true
        }
        return count
    }

    /// Decodes every record of sample versions of `kind` (a day's base, or one commit's
    /// additions), in key order.
    private func versionRecords<T: ReadableTransaction & ~Copyable>(
        of kind: Kind, zlib: ZlibCodec, in txn: borrowing T
    ) throws -> Int {
        var count = 0
        try table.forEach(from: [kind.rawValue], in: txn) { key, value in
            guard key.first == kind.rawValue else { return false }
            count += 1
            do {
                if try DayVersions.wholeDay(in: value) == nil {
                    _ = try DayVersions(bytes: value, zlib: zlib)
                }
            } catch {
                let stream = key.count >= 5 ? key.bigEndian(at: 1, as: UInt32.self) : 0
                let day =
                    key.count >= 13
                    ? Int64(bitPattern: key.bigEndian(at: 5, as: UInt64.self) ^ 1 << 63) : 0
                throw damaged(
                    "sample versions of stream \(stream), day \(day)", String(describing: error))
            }
            return true
        }
        return count
    }
}
