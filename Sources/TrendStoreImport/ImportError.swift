import TrendStore

/// Why an import stopped, naming the file, the line or record, and the field.
///
/// Its description is `file:line: field: what is wrong`, the form editors and
/// terminals link to.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file being read.
    public var file: String
    /// The 1-based line (or record) number, or `nil` when the problem is the whole file.
    public var line: Int?
    /// The field, such as `start`, or `nil` when the problem is the whole record or file.
    public var field: String?
    /// What is wrong.
    public var reason: String
    /// For an import that stopped part way: how many samples earlier batches committed
    /// (they stay in the store); `nil` when the file was refused before any batch.
    public var committedSamples: Int?
    /// The store's error behind this one, when the store refused a batch (a unit that
    /// differs from the series' stored unit, say).
    public var cause: StoreError?

    /// Creates an error.
    public init(
        file: String, line: Int? = nil, field: String? = nil, reason: String,
        committedSamples: Int? = nil, cause: StoreError? = nil
    ) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
        self.committedSamples = committedSamples
        self.cause = cause
    }

    /// `file:line: field: reason`, leaving out what is unknown, and what was committed.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "\(field): " }
        text += reason
        switch committedSamples {
        case nil: break
        case 0?: text += " (nothing was committed)"
        case let count?:
            text +=
                " (\(count) samples of earlier batches were committed and stay; re-running the same file is safe: imports are idempotent)"
        }
        return text
    }
}

/// A problem with one record, before the file and line are known.
struct FieldError: Error {
    let field: String?
    let reason: String
}
