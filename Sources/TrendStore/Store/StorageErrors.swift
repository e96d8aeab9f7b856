import LMDB

extension StoreError {
    /// `error` as the store's own error when it came from LMDB, with the store's path; any
    /// other error unchanged. Host apps then handle one error type, with LMDB's code kept.
    static func wrapping(_ error: any Error, path: String) -> any Error {
        guard let lmdb = error as? LMDBError else { return error }
        return StoreError.storage(
            path: path, operation: lmdb.operation, code: lmdb.code.rawValue,
            reason: lmdb.message + (lmdb.hint.map { "; \($0)" } ?? ""))
    }
}
