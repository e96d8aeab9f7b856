import Foundation

/// What ``TrendStore/verify()-1rh8s`` found.
public struct VerificationReport: Sendable, Codable, Equatable {
    /// One thing that is wrong with the stored data.
    public struct Problem: Sendable, Codable, Equatable, CustomStringConvertible {
        /// The kind of problem: a stable name, open to kinds a later release adds (compare it
        /// with the constants below; a `switch` over it needs a `default`).
        public struct Kind: RawRepresentable, Hashable, Sendable, Codable,
            CustomStringConvertible
        {
            /// The kind's stable name, as `verify --json` writes it.
            public let rawValue: String

            /// A kind of the given name.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// Decodes the name alone, as a kind was written when it was an enum.
            public init(from decoder: any Decoder) throws {
                rawValue = try decoder.singleValueContainer().decode(String.self)
            }

            /// Encodes the name alone.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(rawValue)
            }

            /// The kind's name.
            public var description: String { rawValue }

            /// A block of samples failed its checksum or could not be decoded; its samples
            /// are not used.
            public static let damagedBlock = Kind(rawValue: "damagedBlock")
            /// A block decoded, but its samples break an invariant (order, key, duration).
            public static let inconsistentBlock = Kind(rawValue: "inconsistentBlock")
            /// A rollup row differs from the one recomputed from the samples.
            public static let rollupMismatch = Kind(rawValue: "rollupMismatch")
            /// A day has samples but no rollup row.
            public static let missingRollup = Kind(rawValue: "missingRollup")
            /// A rollup row exists for a day with no samples.
            public static let orphanRollup = Kind(rawValue: "orphanRollup")
            /// A rollup row cannot be decoded.
            public static let damagedRollup = Kind(rawValue: "damagedRollup")
            /// A key belongs to no registered series.
            public static let unknownSeries = Kind(rawValue: "unknownSeries")
            /// LMDB could not read the series' pages (a damaged page of the file, which LMDB
            /// does not checksum): what it holds from there on was not checked.
            public static let unreadable = Kind(rawValue: "unreadable")
            /// The data file's newest meta page is damaged: LMDB may have opened an earlier
            /// commit, so the last commits' data may be missing from what was checked.
            public static let damagedMetaPage = Kind(rawValue: "damagedMetaPage")
            /// A record of the change log does not decode: samples and figures are not
            /// affected, but a change feed or an apply that reads it fails.
            public static let damagedChangeLog = Kind(rawValue: "damagedChangeLog")
        }
        /// The kind of problem.
        public var kind: Kind
        /// The series concerned (its name, or `#id` when it is not registered).
        public var series: String
        /// The first start of the block or the UTC day concerned.
        public var at: Date
        /// What is wrong, in words.
        public var detail: String

        /// `kind series @ time: detail`.
        public var description: String {
            "\(kind.rawValue) \(series) @ \(UTCFormat.timestamp(at.millisecondsSince1970)): \(detail)"
        }
    }

    /// The number of series checked.
    public var seriesChecked = 0
    /// The number of blocks decoded.
    public var blocksChecked = 0
    /// The number of samples decoded.
    public var samplesChecked = 0
    /// The number of rollup rows compared.
    public var rollupsChecked = 0
    /// Everything found wrong; empty for a healthy store.
    public var problems: [Problem] = []

    /// Whether nothing is wrong.
    public var isHealthy: Bool { problems.isEmpty }
}
