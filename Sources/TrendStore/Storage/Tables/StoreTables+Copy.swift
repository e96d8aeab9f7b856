import LMDB

extension StoreTables {
    /// The most bytes of entries one write transaction of a copy holds.
    private static let copyBatchBytes = 16 << 20

    /// Copies every entry of every table, as read in `txn`, into `destination`'s tables (of
    /// `environment`, another store's), each value opened by this store's sealer and sealed
    /// by the destination's, in write transactions of at most ``copyBatchBytes`` each; `meta`'s
    /// records but those kept in the clear (format, encryption, key check), which the
    /// destination writes for itself.
    func copyEntries<T: ReadableTransaction & ~Copyable>(
        from txn: borrowing T, to destination: StoreTables, in environment: Environment
    ) throws {
        var pairs: [(RawTable, RawTable)] = [
            (meta.sealedRecords, destination.meta.sealedRecords),
            (series.raw, destination.series.raw), (blocks.raw, destination.blocks.raw),
            (days.raw, destination.days.raw), (hours.raw, destination.hours.raw),
            (payloads.raw, destination.payloads.raw), (keyValues.raw, destination.keyValues.raw),
        ]
        if let sources, let target = destination.sources { pairs.append((sources.raw, target.raw)) }
        if let sync, let target = destination.sync { pairs.append((sync.raw, target.raw)) }
        for (source, target) in pairs {
            var batch: [[UInt8]: [UInt8]?] = [:]
            var batchBytes = 0
            func flush() throws {
                guard !batch.isEmpty else { return }
                try Transactions.write(in: environment) { try target.putInKeyOrder(batch, in: $0) }
                batch.removeAll(keepingCapacity: true)
                batchBytes = 0
            }
            func add(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
                batch[Array(key)] = Array(value)
                batchBytes += key.count + value.count
                if batchBytes >= Self.copyBatchBytes { try flush() }
            }
            if source.name == MetaTable.name {
                // The records kept in the clear are not opened: the destination writes its own.
                try source.forEach(
                    from: [], in: txn,
                    visit: { MetaTable.clearKeys.contains(Array($0)) ? .skip : .read }, add)
            } else {
                try source.forEach(in: txn) { key, value in
                    try add(key, value)
                    return true
                }
            }
            try flush()
        }
    }
}
