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

    /// Creates an error.
    public init(file: String, line: Int? = nil, field: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `file:line: field: reason`, leaving out what is unknown.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "\(field): " }
        return text + reason
    }
}

/// A problem with one record, before the file and line are known.
struct FieldError: Error {
    let field: String?
    let reason: String
}
