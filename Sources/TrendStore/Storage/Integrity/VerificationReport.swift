import Foundation

/// What ``TrendStore/verify()-1rh8s`` found.
public struct VerificationReport: Sendable, Codable, Equatable {
    /// One thing that is wrong with the stored data.
    public struct Problem: Sendable, Codable, Equatable, CustomStringConvertible {
        /// The kind of problem.
        public enum Kind: String, Sendable, Codable {
            /// A block of samples failed its checksum or could not be decoded; its samples
            /// are not used.
            case damagedBlock
            /// A block decoded, but its samples break an invariant (order, key, duration).
            case inconsistentBlock
            /// A rollup row differs from the one recomputed from the samples.
            case rollupMismatch
            /// A day has samples but no rollup row.
            case missingRollup
            /// A rollup row exists for a day with no samples.
            case orphanRollup
            /// A rollup row cannot be decoded.
            case damagedRollup
            /// A key belongs to no registered series.
            case unknownSeries
            /// LMDB could not read the series' pages (a damaged page of the file, which LMDB
            /// does not checksum): what it holds from there on was not checked.
            case unreadable
            /// The data file's newest meta page is damaged: LMDB may have opened an earlier
            /// commit, so the last commits' data may be missing from what was checked.
            case damagedMetaPage
            /// A record of the change log does not decode: samples and figures are not
            /// affected, but a change feed or an apply that reads it fails.
            case damagedChangeLog
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
