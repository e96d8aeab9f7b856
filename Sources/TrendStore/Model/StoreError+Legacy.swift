import Foundation

extension StoreError {
    /// The error as the enum `StoreError` was before it became a struct with an open
    /// ``code``, for a `switch` written against that enum: `switch error` becomes
    /// `switch error.legacy` and compiles as it did, with a deprecation warning. It never gains
    /// a case: an error of a code added later arrives as ``Legacy/other(code:description:)``.
    @available(
        *, deprecated,
        message: "compare code (StoreError.Code, open to new codes) and read series, path, reason"
    )
    public var legacy: Legacy {
        switch detail {
        case let .invalidSeriesName(name, reason):
            return .invalidSeriesName(name, reason: reason)
        case let .invalidSample(series, index, reason):
            return .invalidSample(series: series, index: index, reason: reason)
        case let .unitMismatch(series, stored, given):
            return .unitMismatch(series: series, stored: stored, given: given)
        case let .kindMismatch(series, stored, given):
            return .kindMismatch(series: series, stored: stored, given: given)
        case let .unsupportedForKind(series, kind, reason):
            return .unsupportedForKind(series: series, kind: kind, reason: reason)
        case let .unknownSeries(name, closest):
            return .unknownSeries(name, closest: closest)
        case let .damagedBlock(series, firstStart, reason):
            return .damagedBlock(series: series, firstStart: firstStart, reason: reason)
        case let .damagedRollup(series, dayStart, reason):
            return .damagedRollup(series: series, dayStart: dayStart, reason: reason)
        case let .storeUnavailable(path, reason):
            return .storeUnavailable(path: path, reason: reason)
        case let .storage(path, operation, code, reason):
            return .storage(path: path, operation: operation, code: code, reason: reason)
        case let .closed(path):
            return .closed(path: path)
        case let .suspended(path):
            return .suspended(path: path)
        case let .incompatibleFormat(reason):
            return .incompatibleFormat(reason)
        case let .invalidArgument(argument, reason):
            return .invalidArgument(argument, reason: reason)
        case let .encryptionKeyRequired(path, reason):
            return .encryptionKeyRequired(path: path, reason: reason)
        case let .wrongEncryptionKey(path):
            return .wrongEncryptionKey(path: path)
        case let .notEncrypted(path):
            return .notEncrypted(path: path)
        case let .damagedRecord(table, record, reason):
            return .damagedRecord(table: table, record: record, reason: reason)
        case let .anchorExpired(retentionDays):
            return .anchorExpired(retentionDays: retentionDays)
        case let .foreignAnchor(store):
            return .foreignAnchor(store: store)
        case let .damagedChangeSet(reason):
            return .damagedChangeSet(reason: reason)
        }
    }

    /// The cases of `StoreError` when it was an enum, frozen: see ``StoreError/legacy``.
    /// Each case carries what the enum's case carried; ``StoreError/Code`` documents each.
    public enum Legacy: Sendable, Equatable {
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
        /// An error of a code added after the enum: its code and description.
        case other(code: Code, description: String)
    }
}
