import TrendStore

/// The spelling of a series kind in CSV and NDJSON files: `cumulative` or `discrete`.
enum SeriesKindName {
    /// What a `kind` field must hold, for error messages.
    static let expectation = "a kind is cumulative or discrete"

    /// The kind `text` names, or `nil`.
    static func parse(_ text: String) -> SeriesKind? { SeriesKind(rawValue: text) }
}
