import LMDB

extension StoreError {
    /// `error` as the store's own error when it came from LMDB, with the store's path; any
    /// other error unchanged. Host apps then handle one error type, with LMDB's code kept.
    ///
    /// A sealed value that did not open becomes ``damagedRecord(table:record:reason:)``
    /// (``StoreEngine/storeError(for:)`` names the series and window where it can).
    static func wrapping(_ error: any Error, path: String) -> any Error {
        if let damage = error as? SealedValueDamage {
            return StoreError.damagedRecord(
                table: damage.table, record: damage.recordName, reason: SealedValueDamage.reason)
        }
        guard let lmdb = error as? LMDBError else { return error }
        if lmdb.code == .suspended { return StoreError.suspended(path: path) }
        return StoreError.storage(
            path: path, operation: lmdb.operation, code: lmdb.code.rawValue,
            reason: lmdb.message + (lmdb.hint.map { "; \($0)" } ?? ""))
    }
}
