import CLMDB

/// An error reported by LMDB, with what was being done when it happened.
///
/// You get one from every throwing call of this module. `code` is LMDB's return
/// code (an open set: codes a newer LMDB adds still fit), `message` is LMDB's own
/// text from `mdb_strerror`, and `operation` says what was being attempted, for
/// example `"put in database 'chunks'"`.
public struct LMDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An LMDB or system return code.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The numeric code, as LMDB returns it (negative LMDB codes or positive `errno` values).
        public let rawValue: Int32
        /// Creates a code from LMDB's numeric value.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The key/data pair already exists (`MDB_KEYEXIST`).
        public static let keyExists = Code(rawValue: MDB_KEYEXIST)
        /// The key/data pair was not found (`MDB_NOTFOUND`). Lookups return `nil` instead.
        public static let notFound = Code(rawValue: MDB_NOTFOUND)
        /// A requested page was not found: the file is damaged (`MDB_PAGE_NOTFOUND`).
        public static let pageNotFound = Code(rawValue: MDB_PAGE_NOTFOUND)
        /// The located page was the wrong type: the file is damaged (`MDB_CORRUPTED`).
        public static let corrupted = Code(rawValue: MDB_CORRUPTED)
        /// A fatal error; the environment must be closed (`MDB_PANIC`).
        public static let panic = Code(rawValue: MDB_PANIC)
        /// The environment was written by an incompatible LMDB version (`MDB_VERSION_MISMATCH`).
        public static let versionMismatch = Code(rawValue: MDB_VERSION_MISMATCH)
        /// The file is not an LMDB data file (`MDB_INVALID`).
        public static let invalid = Code(rawValue: MDB_INVALID)
        /// The environment's map size is reached (`MDB_MAP_FULL`). Writes grow the map and retry.
        public static let mapFull = Code(rawValue: MDB_MAP_FULL)
        /// The environment's maximum number of named databases is reached (`MDB_DBS_FULL`).
        public static let databasesFull = Code(rawValue: MDB_DBS_FULL)
        /// The environment's maximum number of readers is reached (`MDB_READERS_FULL`).
        public static let readersFull = Code(rawValue: MDB_READERS_FULL)
        /// The transaction has too many dirty pages (`MDB_TXN_FULL`).
        public static let transactionFull = Code(rawValue: MDB_TXN_FULL)
        /// Another process grew the map beyond this one's size (`MDB_MAP_RESIZED`).
        public static let mapResized = Code(rawValue: MDB_MAP_RESIZED)
        /// The operation is incompatible with the database's flags (`MDB_INCOMPATIBLE`).
        public static let incompatible = Code(rawValue: MDB_INCOMPATIBLE)
        /// The transaction must abort, has a child, or is invalid (`MDB_BAD_TXN`).
        public static let badTransaction = Code(rawValue: MDB_BAD_TXN)
        /// A key or value has an unsupported size (`MDB_BAD_VALSIZE`).
        public static let badValueSize = Code(rawValue: MDB_BAD_VALSIZE)
        /// Permission denied, for example a write to a read-only environment (`EACCES`).
        public static let permissionDenied = Code(rawValue: 13)
        /// The file system is full (`ENOSPC`).
        public static let noSpace = Code(rawValue: 28)
        /// The environment was closed by ``Environment/close()`` (`EBADF`).
        public static let closed = Code(rawValue: 9)
        /// The environment is suspended by ``Environment/suspend()`` until
        /// ``Environment/resume()`` (a code of this module's own, outside LMDB's and `errno`'s).
        public static let suspended = Code(rawValue: -30_600)

        /// LMDB's description of the code.
        public var description: String {
            switch self {
            case .closed: "the environment is closed"
            case .suspended: "the environment is suspended"
            default: String(cString: mdb_strerror(rawValue))
            }
        }
    }

    /// What went wrong, as LMDB's return code.
    public let code: Code
    /// What was being done, and to what.
    public let operation: String

    /// Creates an error for a code returned while doing `operation`.
    public init(code: Code, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// LMDB's message for the code (`mdb_strerror`).
    public var message: String { code.description }

    /// What to tell a person about the code where it helps, such as a full disk; else `nil`.
    public var hint: String? {
        switch code.rawValue {
        case 5, 27, 28:
            return
                "the disk may be full or the file too large: nothing of this transaction was written"
        default: return nil
        }
    }

    /// A one-line description: the operation, LMDB's message, the code, and a hint where one helps.
    public var description: String {
        "LMDB: \(operation): \(message) (\(code.rawValue))\(hint.map { "; \($0)" } ?? "")"
    }
}

/// Throws an `LMDBError` unless `result` is `MDB_SUCCESS`.
@inline(__always)
func check(_ result: Int32, _ operation: @autoclosure () -> String) throws {
    if result != MDB_SUCCESS {
        throw LMDBError(code: LMDBError.Code(rawValue: result), operation: operation())
    }
}
