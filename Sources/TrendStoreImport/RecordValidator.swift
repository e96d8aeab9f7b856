import TrendStore

/// Checks the series and source names of each record a reader produced against the store's
/// rules (NFC, 1 to 255 bytes; a source may be empty), naming the file, line and field of a
/// broken one. Samples are
/// checked against ``SampleRules`` by ``ParsedSliceBuilder``.
struct RecordValidator {
    let file: String
    private var lastName = ""
    private var lastNormalized: String?
    private var lastProblem: String?

    init(file: String) { self.file = file }

    /// The series' normalised name.
    ///
    /// - Throws: ``ImportError`` naming the file, line and field of the broken rule.
    mutating func validate(series: String, line: Int) throws(ImportError) -> String {
        if series != lastName || lastName.isEmpty {
            lastName = series
            do {
                lastNormalized = try SeriesName.validated(series)
                lastProblem = nil
            } catch {
                lastNormalized = nil
                lastProblem = error.reason ?? "\(error)"
            }
        }
        guard let name = lastNormalized else {
            throw ImportError(file: file, line: line, field: "series", reason: lastProblem ?? "")
        }
        return name
    }

    /// The source's normalised name (empty: the default source).
    ///
    /// - Throws: ``ImportError`` naming the file, line and field when it is too long.
    func validate(source: String, line: Int) throws(ImportError) -> String {
        do {
            return try SourceName.validated(source)
        } catch {
            throw ImportError(
                file: file, line: line, field: "source", reason: error.reason ?? "\(error)")
        }
    }
}
