import Foundation

/// The errors the store throws, one constructor per ``StoreError/Code``: the same spelling
/// as the enum cases of earlier builds, so `throw` and `==` written against them still compile.
extension StoreError {
    /// A series name is empty or longer than 255 UTF-8 bytes.
    public static func invalidSeriesName(_ name: String, reason: String) -> StoreError {
        StoreError(.invalidSeriesName(name, reason: reason))
    }

    /// A sample of a batch is malformed; nothing of the batch was written.
    public static func invalidSample(series: String, index: Int, reason: String) -> StoreError {
        StoreError(.invalidSample(series: series, index: index, reason: reason))
    }

    /// A series exists with another unit than the one given.
    public static func unitMismatch(series: String, stored: String, given: String) -> StoreError {
        StoreError(.unitMismatch(series: series, stored: stored, given: given))
    }

    /// A series exists with another kind than the one a write gives; its kind never changes.
    public static func kindMismatch(series: String, stored: SeriesKind, given: SeriesKind)
        -> StoreError
    {
        StoreError(.kindMismatch(series: series, stored: stored, given: given))
    }

    /// A query that does not apply to the series' kind, such as an average of a
    /// cumulative series or an hourly curve of a discrete one; `reason` says what does.
    public static func unsupportedForKind(series: String, kind: SeriesKind, reason: String)
        -> StoreError
    {
        StoreError(.unsupportedForKind(series: series, kind: kind, reason: reason))
    }

    /// No series has this name; `closest` lists up to three stored names it may have meant.
    public static func unknownSeries(_ name: String, closest: [String]) -> StoreError {
        StoreError(.unknownSeries(name, closest: closest))
    }

    /// A stored block of samples, the one whose earliest start is `firstStart` (milliseconds
    /// since 1970), failed its checksum or could not be decoded.
    public static func damagedBlock(series: String, firstStart: Int64, reason: String) -> StoreError
    {
        StoreError(.damagedBlock(series: series, firstStart: firstStart, reason: reason))
    }

    /// A stored rollup row could not be decoded.
    public static func damagedRollup(series: String, dayStart: Int64, reason: String) -> StoreError
    {
        StoreError(.damagedRollup(series: series, dayStart: dayStart, reason: reason))
    }

    /// The store's directory cannot be created or opened (not a directory, no permission).
    public static func storeUnavailable(path: String, reason: String) -> StoreError {
        StoreError(.storeUnavailable(path: path, reason: reason))
    }

    /// LMDB or the file system failed while doing `operation` to the store at `path`:
    /// `code` is LMDB's return code or the system's `errno` (28: the disk is full), `reason`
    /// their words. Nothing of the transaction that failed was written.
    public static func storage(path: String, operation: String, code: Int32, reason: String)
        -> StoreError
    {
        StoreError(.storage(path: path, operation: operation, code: code, reason: reason))
    }

    /// The store was closed (``TrendStore/close()``); open it again to go on.
    public static func closed(path: String) -> StoreError {
        StoreError(.closed(path: path))
    }

    /// The store is suspended (``TrendStore/suspend()``): it holds no file open, so reads
    /// and writes are refused until ``TrendStore/resume()``; nothing was read or written.
    public static func suspended(path: String) -> StoreError {
        StoreError(.suspended(path: path))
    }

    /// The store's metadata is missing, from an unknown format, or from a development
    /// build of TrendStore before 1.0; the reason says which.
    public static func incompatibleFormat(_ reason: String) -> StoreError {
        StoreError(.incompatibleFormat(reason))
    }

    /// An argument is outside what the call accepts.
    public static func invalidArgument(_ argument: Argument, reason: String) -> StoreError {
        StoreError(.invalidArgument(argument, reason: reason))
    }

    /// The store is encrypted and was opened without a key (or by a build without the
    /// `Encryption` trait, as `reason` then says).
    public static func encryptionKeyRequired(path: String, reason: String) -> StoreError {
        StoreError(.encryptionKeyRequired(path: path, reason: reason))
    }

    /// The store is encrypted with another key than the one given.
    public static func wrongEncryptionKey(path: String) -> StoreError {
        StoreError(.wrongEncryptionKey(path: path))
    }

    /// A key was given for a store that is not encrypted.
    public static func notEncrypted(path: String) -> StoreError {
        StoreError(.notEncrypted(path: path))
    }

    /// A stored record other than a block or a rollup (a series record, a setting, a cached
    /// aggregate, a typed-cache entry) of an encrypted store failed authentication: its
    /// bytes changed or it was moved. `record` names it as far as its key tells.
    public static func damagedRecord(table: String, record: String, reason: String) -> StoreError {
        StoreError(.damagedRecord(table: table, record: record, reason: reason))
    }

    /// A change anchor older than the store's change retention, or newer than its feed (the
    /// store was restored from an earlier copy): ask for changes from `nil` again.
    public static func anchorExpired(retentionDays: Int) -> StoreError {
        StoreError(.anchorExpired(retentionDays: retentionDays))
    }

    /// A change anchor of another store (named by its id).
    public static func foreignAnchor(store: String) -> StoreError {
        StoreError(.foreignAnchor(store: store))
    }

    /// Bytes that are not a change set: damaged, truncated, of a later version, or sealed
    /// with another key.
    public static func damagedChangeSet(reason: String) -> StoreError {
        StoreError(.damagedChangeSet(reason: reason))
    }
}
