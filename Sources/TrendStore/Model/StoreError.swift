import Foundation

/// An error of the store, naming the series, sample, block or store path involved.
///
/// Every case has a stable ``code`` a host app can switch on or log, and a one-line
/// description (also its `localizedDescription`) that says what and why.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// A series name is empty or longer than 255 UTF-8 bytes.
    case invalidSeriesName(String, reason: String)
    /// A sample of a batch is malformed; nothing of the batch was written.
    case invalidSample(series: String, index: Int, reason: String)
    /// A series exists with another unit than the one given.
    case unitMismatch(series: String, stored: String, given: String)
    /// A series exists with another kind than the one a write gives; its kind never changes.
    case kindMismatch(series: String, stored: SeriesKind, given: SeriesKind)
    /// A query that does not apply to the series' kind, such as an average of a
    /// cumulative series or an hourly curve of a discrete one; `reason` says what does.
    case unsupportedForKind(series: String, kind: SeriesKind, reason: String)
    /// No series has this name; `closest` lists up to three stored names it may have meant.
    case unknownSeries(String, closest: [String])
    /// A stored block of samples, the one whose earliest start is `firstStart` (milliseconds
    /// since 1970), failed its checksum or could not be decoded.
    case damagedBlock(series: String, firstStart: Int64, reason: String)
    /// A stored rollup row could not be decoded.
    case damagedRollup(series: String, dayStart: Int64, reason: String)
    /// The store's directory cannot be created or opened (not a directory, no permission).
    case storeUnavailable(path: String, reason: String)
    /// LMDB or the file system failed while doing `operation` to the store at `path`:
    /// `code` is LMDB's return code or the system's `errno` (28: the disk is full), `reason`
    /// their words. Nothing of the transaction that failed was written.
    case storage(path: String, operation: String, code: Int32, reason: String)
    /// The store was closed (``TrendStore/close()``); open it again to go on.
    case closed(path: String)
    /// The store is suspended (``TrendStore/suspend()``): it holds no file open, so reads
    /// and writes are refused until ``TrendStore/resume()``; nothing was read or written.
    case suspended(path: String)
    /// The store's metadata is missing, from an unknown format, or from a development
    /// build of TrendStore before 1.0; the reason says which.
    case incompatibleFormat(String)
    /// An argument is outside what the call accepts.
    case invalidArgument(Argument, reason: String)
    /// The store is encrypted and was opened without a key (or by a build without the
    /// `Encryption` trait, as `reason` then says).
    case encryptionKeyRequired(path: String, reason: String)
    /// The store is encrypted with another key than the one given.
    case wrongEncryptionKey(path: String)
    /// A key was given for a store that is not encrypted.
    case notEncrypted(path: String)
    /// A stored record other than a block or a rollup (a series record, a setting, a cached
    /// aggregate, a typed-cache entry) of an encrypted store failed authentication: its
    /// bytes changed or it was moved. `record` names it as far as its key tells.
    case damagedRecord(table: String, record: String, reason: String)
    /// A change anchor older than the store's change retention, or newer than its feed (the
    /// store was restored from an earlier copy): ask for changes from `nil` again.
    case anchorExpired(retentionDays: Int)
    /// A change anchor of another store (named by its id).
    case foreignAnchor(store: String)
    /// Bytes that are not a change set: damaged, truncated, of a later version, or sealed
    /// with another key.
    case damagedChangeSet(reason: String)

    /// The argument an ``invalidArgument(_:reason:)`` names.
    public enum Argument: String, Sendable, Equatable {
        /// A reference instant (`now`).
        case now
        /// A local date.
        case date
        /// A range of dates or instants.
        case range
        /// A window of days.
        case window
        /// A weekday number.
        case weekday
        /// Figures given to be cached (a pattern, a curve).
        case cachedFigures
        /// The limits or namespace of a ``TypedCache``.
        case cacheConfiguration
        /// The interval of a statistics query.
        case interval
        /// The anchor of a statistics query.
        case anchor
        /// An external anchor stored beside samples, or its name.
        case externalAnchor
        /// The figures a statistics query asks for.
        case statistics
        /// The bytes of an encryption key.
        case encryptionKey
        /// A source name, or a source a series does not have.
        case source
        /// A ``SampleID``, or ids that do not match the samples they name.
        case sampleID
    }

    /// A stable name of the case, for host apps to switch on or log; it never changes
    /// between releases, unlike the description's wording.
    public var code: String {
        switch self {
        case .invalidSeriesName: return "invalid-series-name"
        case .invalidSample: return "invalid-sample"
        case .unitMismatch: return "unit-mismatch"
        case .kindMismatch: return "kind-mismatch"
        case .unsupportedForKind: return "unsupported-for-kind"
        case .unknownSeries: return "unknown-series"
        case .damagedBlock: return "damaged-block"
        case .damagedRollup: return "damaged-rollup"
        case .storeUnavailable: return "store-unavailable"
        case .closed: return "closed"
        case .suspended: return "suspended"
        case .storage: return "storage"
        case .incompatibleFormat: return "incompatible-format"
        case .invalidArgument(let argument, _): return "invalid-argument.\(argument.rawValue)"
        case .encryptionKeyRequired: return "encryption-key-required"
        case .wrongEncryptionKey: return "wrong-encryption-key"
        case .notEncrypted: return "not-encrypted"
        case .damagedRecord: return "damaged-record"
        case .anchorExpired: return "anchor-expired"
        case .foreignAnchor: return "foreign-anchor"
        case .damagedChangeSet: return "damaged-change-set"
        }
    }

    /// The description, for `LocalizedError`.
    public var errorDescription: String? { description }

    /// A one-line description naming what is wrong and where.
    public var description: String {
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
