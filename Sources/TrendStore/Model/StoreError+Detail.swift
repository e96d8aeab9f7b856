import Foundation

extension StoreError {
    /// What failed and the values that say where: one case per code this release throws.
    /// Internal, so a later release adds cases without breaking a host's `switch`.
    enum Detail: Sendable, Equatable {
        case invalidSeriesName(String, reason: String)
        case invalidSample(series: String, index: Int, reason: String)
        case unitMismatch(series: String, stored: String, given: String)
        case kindMismatch(series: String, stored: SeriesKind, given: SeriesKind)
        case unsupportedForKind(series: String, kind: SeriesKind, reason: String)
        case unknownSeries(String, closest: [String])
        case damagedBlock(series: String, firstStart: Int64, reason: String)
        case damagedRollup(series: String, dayStart: Int64, reason: String)
        case storeUnavailable(path: String, reason: String)
        case storage(path: String, operation: String, code: Int32, reason: String)
        case closed(path: String)
        case suspended(path: String)
        case incompatibleFormat(String)
        case invalidArgument(Argument, reason: String)
        case encryptionKeyRequired(path: String, reason: String)
        case wrongEncryptionKey(path: String)
        case notEncrypted(path: String)
        case damagedRecord(table: String, record: String, reason: String)
        case anchorExpired(retentionDays: Int)
        case foreignAnchor(store: String)
        case damagedChangeSet(reason: String)
    }
}

extension StoreError.Detail {
    /// The stable code of the case.
    var code: StoreError.Code {
        switch self {
        case .invalidSeriesName: return .invalidSeriesName
        case .invalidSample: return .invalidSample
        case .unitMismatch: return .unitMismatch
        case .kindMismatch: return .kindMismatch
        case .unsupportedForKind: return .unsupportedForKind
        case .unknownSeries: return .unknownSeries
        case .damagedBlock: return .damagedBlock
        case .damagedRollup: return .damagedRollup
        case .storeUnavailable: return .storeUnavailable
        case .storage: return .storage
        case .closed: return .closed
        case .suspended: return .suspended
        case .incompatibleFormat: return .incompatibleFormat
        case .invalidArgument(let argument, _): return .invalidArgument(argument)
        case .encryptionKeyRequired: return .encryptionKeyRequired
        case .wrongEncryptionKey: return .wrongEncryptionKey
        case .notEncrypted: return .notEncrypted
        case .damagedRecord: return .damagedRecord
        case .anchorExpired: return .anchorExpired
        case .foreignAnchor: return .foreignAnchor
        case .damagedChangeSet: return .damagedChangeSet
        }
    }

    /// A one-line description naming what is wrong and where.
    var description: String {
        switch self {
        case let .invalidSeriesName(name, reason):
            return "invalid series name \"\(name.prefix(40))\": \(reason)"
        case let .invalidSample(series, index, reason):
            return "series \(series): sample \(index): \(reason)"
        case let .unitMismatch(series, stored, given):
            return "series \(series) is stored in \(stored), not \(given)"
        case let .kindMismatch(series, stored, given):
            return "series \(series) is \(stored.rawValue), not \(given.rawValue)"
        case let .unsupportedForKind(series, kind, reason):
            return "series \(series) is \(kind.rawValue): \(reason)"
        case let .unknownSeries(name, closest):
            let hint =
                closest.isEmpty
                ? "" : " (did you mean \(closest.map { "\"\($0)\"" }.joined(separator: ", "))?)"
            return "no series named \"\(name)\"\(hint)"
        case let .damagedBlock(series, firstStart, reason):
            return "series \(series): block from \(UTCFormat.timestamp(firstStart)): \(reason)"
        case let .damagedRollup(series, dayStart, reason):
            return "series \(series): rollup \(UTCFormat.day(dayStart)): \(reason)"
        case let .storage(path, operation, code, reason):
            return "store \(path): \(operation): \(reason) (\(code))"
        case let .closed(path):
            return "store \(path): closed; open it again to read or write"
        case let .suspended(path):
            return "store \(path): suspended; resume it to read or write"
        case let .storeUnavailable(path, reason):
            return "store \(path): \(reason)"
        case let .incompatibleFormat(reason):
            return "incompatible store: \(reason)"
        case let .invalidArgument(argument, reason):
            return "\(argument.rawValue): \(reason)"
        case let .encryptionKeyRequired(path, reason):
            return "store \(path): \(reason)"
        case let .wrongEncryptionKey(path):
            return "store \(path): the key does not open this encrypted store"
        case let .notEncrypted(path):
            return "store \(path): not encrypted, but a key was given; open it without one"
        case let .damagedRecord(table, record, reason):
            return "\(table) record \(record): \(reason)"
        case let .anchorExpired(days):
            return
                "the change anchor is older than the store's change retention (\(days) days) or newer than its feed; ask for changes from no anchor"
        case let .foreignAnchor(store):
            return "the change anchor belongs to another store (\(store))"
        case let .damagedChangeSet(reason):
            return "not a change set: \(reason)"
        }
    }
}
