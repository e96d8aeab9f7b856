import LMDB

/// Binding an encrypted store's values to its seal id (FORMAT.md, format 7, ``StoreSeal``):
/// the tables of text keys are blinded anew and resealed in one transaction, every other
/// value resealed in batches.
extension StoreTables {
    /// The tables whose keys are numbers, resealed in batches in this order.
    var resealedTables: [RawTable] {
        [blocks.raw, days.raw, hours.raw] + [sources?.raw, sync?.raw].compactMap { $0 }
    }

    /// Reads the store's seal id in `txn` into this handle's sealer: bound, or resealing while
    /// a migration has values sealed without it left. Nothing in a plain store or one
    /// without a seal id.
    func loadStoreSeal<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws {
        guard let sealer, let id = try meta.sealID(in: txn) else { return }
        // The position is sealed with the id: read it as a resealing store reads.
        sealer.bind(id, resealing: true)
        sealer.bind(id, resealing: try meta.resealPosition(in: txn) != nil)
    }

    /// Gives the store a fresh seal id in `txn`: every entry of the tables of text keys
    /// (series, cached aggregates, typed-cache entries) moves to its key blinded with the id
    /// and is sealed with it, as is every sealed record of `meta`; the id is recorded, and
    /// the sealer left resealing. Values of the other tables are left for
    /// ``resealNext(from:entryLimit:byteLimit:in:)``.
    ///
    /// - Throws: ``SealedValueDamage`` for a value that does not open.
    func bindToStore(in txn: borrowing WriteTransaction) throws {
        guard let sealer else { return }
        let id = sealer.freshSealID()
        let textTables = [series.raw, payloads.raw, keyValues.raw]
        var entries: [[(key: [UInt8], value: [UInt8])]] = []
        for table in textTables {
            let tableEntries = try table.blindedEntries(prefix: [], from: [], in: txn)
            for entry in tableEntries { try table.delete(forKey: entry.key, in: txn) }
            entries.append(tableEntries)
        }
        var records: [(key: [UInt8], value: [UInt8])] = []
        try meta.sealedRecords.forEach(
            from: [], in: txn, visit: { MetaTable.clearKeys.contains(Array($0)) ? .skip : .read }
        ) { key, value in records.append((Array(key), Array(value))) }
        sealer.bind(id, resealing: true)
        for (table, tableEntries) in zip(textTables, entries) {
            for entry in tableEntries { try table.put(entry.value, forKey: entry.key, in: txn) }
        }
        for record in records {
            try meta.sealedRecords.put(record.value, forKey: record.key, in: txn)
        }
        try meta.recordSealID(id, in: txn)
    }

    /// Reseals, from `position`, the values of ``resealedTables`` still sealed without the
    /// seal id, until `entryLimit` entries are looked at or `byteLimit` bytes resealed;
    /// returns where the next batch starts, or `nil` when every table is done.
    ///
    /// - Throws: ``SealedValueDamage`` for a value that does not open.
    func resealNext(
        from position: ResealPosition, entryLimit: Int, byteLimit: Int,
        in txn: borrowing WriteTransaction
    ) throws -> ResealPosition? {
        let tables = resealedTables
        var position = position
        var looked = 0
        var bytes = 0
        while position.table < tables.count {
            let table = tables[position.table]
            var unbound: [(key: [UInt8], value: [UInt8])] = []
            var next: [UInt8]?
            try table.withCursor(in: txn) { cursor in
                try cursor.forEach(from: position.key) { key, value in
                    guard looked < entryLimit, bytes < byteLimit else {
                        next = Array(key)
                        return false
                    }
                    looked += 1
                    if value.first == ValueSealer.unboundScheme {
                        unbound.append((Array(key), Array(value)))
                        bytes += value.count
                    }
                    return true
                }
            }
            for entry in unbound {
                let plaintext = try entry.value.withUnsafeBytes { value in
                    try entry.key.withUnsafeBytes { key in
                        try table.opened(value, key: key) { Array($0) }
                    }
                }
                try table.put(plaintext, forKey: entry.key, in: txn)
            }
            if let next { return ResealPosition(table: position.table, key: next) }
            position = ResealPosition(table: position.table + 1, key: [])
        }
        return nil
    }
}
