import LMDB

/// The records of an encrypted store's seal id (FORMAT.md, format 7, ``StoreSeal``): the id
/// itself, in the clear beside the key check so a handle can open the values that name it,
/// and, while the migration to format 7 reseals the values sealed without it, where that
/// migration resumes, sealed so that no one without the key can make a store accept values
/// sealed the old way again.
extension MetaTable {
    /// `seal-id`: the store's 16 random bytes.
    static let sealIDKey = Array("seal-id".utf8)
    private static let resealPositionKey = Array("reseal-position".utf8)

    /// The store's seal id; `nil` in a plain store or one of format 6 or older.
    func sealID<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> [UInt8]? {
        try plain.value(forKey: Self.sealIDKey, in: txn)
    }

    /// Records the store's seal id.
    func recordSealID(_ id: [UInt8], in txn: borrowing WriteTransaction) throws {
        try plain.put(id, forKey: Self.sealIDKey, in: txn)
    }

    /// Where resealing resumes: a table's place in ``StoreTables/resealedTables`` and the key
    /// to start at; `nil` when no migration reseals. A record that is not one is damage.
    func resealPosition<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> ResealPosition?
    {
        try sealedRecords.withValue(forKey: Self.resealPositionKey, in: txn) { bytes in
            guard let table = bytes.first else {
                throw SealedValueDamage(table: Self.name, key: Self.resealPositionKey)
            }
            return ResealPosition(table: Int(table), key: Array(bytes.dropFirst()))
        }
    }

    /// Records where resealing resumes; `nil` removes the record.
    func setResealPosition(_ position: ResealPosition?, in txn: borrowing WriteTransaction)
        throws
    {
        guard let position else {
            _ = try sealedRecords.delete(forKey: Self.resealPositionKey, in: txn)
            return
        }
        try sealedRecords.put(
            [UInt8(truncatingIfNeeded: position.table)] + position.key,
            forKey: Self.resealPositionKey, in: txn)
    }
}

/// Where the migration to format 7 goes on resealing: the first key of a table it has not
/// reached.
struct ResealPosition: Equatable, Sendable {
    /// The table's place in ``StoreTables/resealedTables``.
    var table: Int
    /// The key to start at (empty: the table's first).
    var key: [UInt8]
}
