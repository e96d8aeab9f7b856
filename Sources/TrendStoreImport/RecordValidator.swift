import TrendStore

/// Checks each record a reader produced against the store's rules, the one place an
/// import validates samples: the series name (NFC, 1 to 255 bytes) and the sample
/// (``SampleRules``: instants in years 0001–9999, end not before start, a finite value
/// within ±1e15). A failure names the file, line and field.
struct RecordValidator {
    let file: String
    private var lastName = ""
    private var lastNormalized: String?
    private var lastProblem: String?

    init(file: String) { self.file = file }

    /// The series' normalised name.
    ///
    /// - Throws: ``ImportError`` naming the file, line and field of the broken rule.
    mutating func validate(series: String, sample: Sample, line: Int) throws(ImportError)
        -> String
    {
        if series != lastName || lastName.isEmpty {
            lastName = series
            do {
                lastNormalized = try SeriesName.validated(series)
                lastProblem = nil
            } catch {
                lastNormalized = nil
                if case .invalidSeriesName(_, let why) = error {
                    lastProblem = why
                } else {
                    lastProblem = "\(error)"
                }
            }
        }
        guard let name = lastNormalized else {
            throw ImportError(file: file, line: line, field: "series", reason: lastProblem ?? "")
        }
        if let violation = SampleRules.violation(of: sample) {
            throw ImportError(
                file: file, line: line, field: violation.field, reason: violation.reason)
        }
        return name
    }
}
