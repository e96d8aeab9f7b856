import Foundation

extension StoreError {
    /// A stable name of what failed, for host apps to compare, switch on (with a `default`) or
    /// log: it never changes between releases, unlike the description's wording, and later
    /// releases add codes without breaking code written against these.
    ///
    /// A `catch` clause can name one: `catch StoreError.Code.anchorExpired { … }`.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The code's name, such as `unknown-series` or `invalid-argument.window`.
        public let rawValue: String

        /// A code of the given name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A code of the given name, so `error.code == "anchor-expired"` reads as it did when
        /// the code was a string.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The code's name.
        public var description: String { rawValue }

        /// Whether `error` is a ``StoreError`` of this code: `catch StoreError.Code.closed`.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? StoreError)?.code == code
        }

        /// A series name is empty or longer than 255 UTF-8 bytes.
        public static let invalidSeriesName = Code(rawValue: "invalid-series-name")
        /// A sample of a batch is malformed; nothing of the batch was written.
        public static let invalidSample = Code(rawValue: "invalid-sample")
        /// A series exists with another unit than the one given.
        public static let unitMismatch = Code(rawValue: "unit-mismatch")
        /// A series exists with another kind than the one a write gives; its kind never changes.
        public static let kindMismatch = Code(rawValue: "kind-mismatch")
        /// A query that does not apply to the series' kind, such as an average of a
        /// cumulative series or an hourly curve of a discrete one; ``StoreError/reason`` says
        /// what does.
        public static let unsupportedForKind = Code(rawValue: "unsupported-for-kind")
        /// No series has this name (``StoreError/series``); ``StoreError/closestSeries`` lists
        /// up to three stored names it may have meant.
        public static let unknownSeries = Code(rawValue: "unknown-series")
        /// A stored block of samples of ``StoreError/series`` (the description names its first
        /// start) failed its checksum or could not be decoded.
        public static let damagedBlock = Code(rawValue: "damaged-block")
        /// A stored rollup row could not be decoded.
        public static let damagedRollup = Code(rawValue: "damaged-rollup")
        /// The store's directory cannot be created or opened (not a directory, no permission).
        public static let storeUnavailable = Code(rawValue: "store-unavailable")
        /// LMDB or the file system failed on the store at ``StoreError/path``:
        /// ``StoreError/systemCode`` is LMDB's return code or the system's `errno` (28: the
        /// disk is full), ``StoreError/reason`` their words. Nothing of the transaction that
        /// failed was written.
        public static let storage = Code(rawValue: "storage")
        /// The store was closed (``TrendStore/close()``); open it again to go on.
        public static let closed = Code(rawValue: "closed")
        /// The store is suspended (``TrendStore/suspend()``): it holds no file open, so reads
        /// and writes are refused until ``TrendStore/resume()``; nothing was read or written.
        public static let suspended = Code(rawValue: "suspended")
        /// The store's metadata is missing, from an unknown format, or from a development
        /// build of TrendStore before 1.0; the reason says which.
        public static let incompatibleFormat = Code(rawValue: "incompatible-format")
        /// An argument is outside what the call accepts: `invalid-argument.` and the argument's
        /// name, such as `invalid-argument.window`.
        public static func invalidArgument(_ argument: Argument) -> Code {
            Code(rawValue: "invalid-argument.\(argument.rawValue)")
        }
        /// The store is encrypted and was opened without a key (or by a build without the
        /// `Encryption` trait, as ``StoreError/reason`` then says).
        public static let encryptionKeyRequired = Code(rawValue: "encryption-key-required")
        /// The store is encrypted with another key than the one given.
        public static let wrongEncryptionKey = Code(rawValue: "wrong-encryption-key")
        /// A key was given for a store that is not encrypted.
        public static let notEncrypted = Code(rawValue: "not-encrypted")
        /// A stored record other than a block or a rollup (a series record, a setting, a cached
        /// aggregate, a typed-cache entry) of an encrypted store failed authentication: its
        /// bytes changed or it was moved. The description names it as far as its key tells.
        public static let damagedRecord = Code(rawValue: "damaged-record")
        /// A change anchor older than the store's change retention, or newer than its feed (the
        /// store was restored from an earlier copy): ask for changes from `nil` again.
        public static let anchorExpired = Code(rawValue: "anchor-expired")
        /// A change anchor of another store (named by its id).
        public static let foreignAnchor = Code(rawValue: "foreign-anchor")
        /// Bytes that are not a change set: damaged, truncated, of a later version, or sealed
        /// with another key.
        public static let damagedChangeSet = Code(rawValue: "damaged-change-set")
    }

    /// The argument an ``StoreError/Code/invalidArgument(_:)`` error names: a stable name, open
    /// to arguments a later release adds (a `switch` over it needs a `default`).
    public struct Argument: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The argument's name, as the error's code carries it.
        public let rawValue: String

        /// An argument of the given name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The argument's name.
        public var description: String { rawValue }

        /// A reference instant (`now`).
        public static let now = Argument(rawValue: "now")
        /// A local date.
        public static let date = Argument(rawValue: "date")
        /// A range of dates or instants.
        public static let range = Argument(rawValue: "range")
        /// A window of days.
        public static let window = Argument(rawValue: "window")
        /// A weekday number.
        public static let weekday = Argument(rawValue: "weekday")
        /// Figures given to be cached (a pattern, a curve).
        public static let cachedFigures = Argument(rawValue: "cachedFigures")
        /// The limits or namespace of a ``TypedCache``.
        public static let cacheConfiguration = Argument(rawValue: "cacheConfiguration")
        /// The interval of a statistics query.
        public static let interval = Argument(rawValue: "interval")
        /// The anchor of a statistics query.
        public static let anchor = Argument(rawValue: "anchor")
        /// An external anchor stored beside samples, or its name.
        public static let externalAnchor = Argument(rawValue: "externalAnchor")
        /// The figures a statistics query asks for.
        public static let statistics = Argument(rawValue: "statistics")
        /// The bytes of an encryption key.
        public static let encryptionKey = Argument(rawValue: "encryptionKey")
        /// A source name, or a source a series does not have.
        public static let source = Argument(rawValue: "source")
        /// A ``SampleID``, or ids that do not match the samples they name.
        public static let sampleID = Argument(rawValue: "sampleID")
    }
}
