import Foundation
import LMDB

/// Storage format 6 → 7: an encrypted store's values are bound to the store. The first
/// batch gives the store a random seal id (``StoreSeal``), moves every series, cached
/// aggregate and typed-cache entry to its key blinded with that id and seals it, and every
/// sealed `meta` record, with the id in its associated data; later batches reseal the values
/// of the other tables, at most ``entriesPerBatch`` entries looked at or ``bytesPerBatch``
/// bytes resealed a transaction, recording where the next resumes (sealed, in `meta`); the
/// last removes that record as the migration is recorded. From then on a value sealed
/// without the id is refused. A plain store only records format 7.
///
/// Every batch records format 7 (from the first on, releases that read format 6 refuse the
/// store rather than look its series up under keys blinded the old way). A store read
/// meanwhile answers the same: this build opens both kinds of value while the migration runs.
enum StoreSealMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0007-store-bound-sealing"
    /// The most entries a batch looks at.
    static let entriesPerBatch = 512
    /// The most bytes a batch reseals: about a megabyte of pages, tens of milliseconds.
    static let bytesPerBatch = 1 << 20

    /// Runs the next batch.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws -> MigrationProgress
    {
        try context.meta.recordFormat(7, in: txn)
        // The step reloaded the seal: another process may have run batches since this
        // handle read the store.
        guard context.tables.sealer != nil else { return .finished }
        guard try context.meta.sealID(in: txn) != nil else {
            try context.tables.bindToStore(in: txn)
            try context.meta.setResealPosition(ResealPosition(table: 0, key: []), in: txn)
            return .moreToDo
        }
        guard let position = try context.meta.resealPosition(in: txn) else { return .finished }
        let next = try context.tables.resealNext(
            from: position, entryLimit: entriesPerBatch, byteLimit: bytesPerBatch, in: txn)
        try context.meta.setResealPosition(next, in: txn)
        if next == nil { try context.tables.loadStoreSeal(in: txn) }
        return next == nil ? .finished : .moreToDo
    }
}
