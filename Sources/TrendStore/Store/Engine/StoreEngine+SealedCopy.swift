import Foundation
import LMDB

extension StoreEngine {
    /// Writes a compacted copy of the store into `directory`, a new store's directory, with
    /// its values sealed as a store `options` creates seals them: under its key, or in the
    /// clear without one. The copy is marked incomplete: it refuses to open until
    /// ``markCopyComplete()`` is called on a handle opened with
    /// ``StoreOptions/opensIncompleteCopy``. It is read from one snapshot while other
    /// handles go on writing.
    func writeSealedCopy(into directory: URL, options: StoreOptions) throws {
        try checkOpen()
        var environmentOptions = Environment.Options()
        environmentOptions.mapSize = max(options.initialMapSize, 2 * fileSize())
        let destination = try EnvironmentRegistry.acquire(
            directory: directory, options: environmentOptions
        ).environment
        defer { EnvironmentRegistry.release(destination) }
        let meta = try MetaTable(in: destination)
        meta.stampCommits(of: destination)
        let sealing = try StoreEncryption.newStore(options: options)
        let sealedMeta = meta.sealed(by: sealing?.1)
        let copy = try StoreTables(in: destination, meta: sealedMeta, sealer: sealing?.1)
        try Transactions.write(in: destination) { txn in
            try meta.markIncompleteCopy(true, in: txn)
            try meta.recordFormat(StorageFormat.current, in: txn)
            if let (records, _) = sealing { try sealedMeta.recordEncryption(records, in: txn) }
        }
        try read { txn in try tables.copyEntries(from: txn, to: copy, in: destination) }
    }

    /// Removes the mark of a copy written by ``writeSealedCopy(into:options:)``: it opens
    /// from now on.
    func markCopyComplete() throws {
        try write { txn, _ in try tables.meta.markIncompleteCopy(false, in: txn) }
    }
}
