import TrendStore

/// Checks each record a reader produced against the store's rules, the one place an
/// import validates samples: the series name (NFC, 1 to 255 bytes) and the sample
/// (``SampleRules``: instants in years 0001–9999, end not before start, a finite value
/// within ±1e15). A failure names the file, line and field.
struct RecordValidator {
    let file: String
    private var lastName = ""
    private var lastNormalized: Result<String, ImportError> = .success("")

    init(file: String) { self.file = file }

    /// The series' normalised name and the sample, or the error naming what is wrong.
    mutating func validate(series: String, sample: Sample, line: Int) -> Result<String, ImportError>
    {
        if series != lastName || lastName.isEmpty {
            lastName = series
            do {
                lastNormalized = .success(try SeriesName.validated(series))
            } catch {
                let reason: String
                if case .invalidSeriesName(_, let why) = error {
                    reason = why
                } else {
                    reason = "\(error)"
                }
                lastNormalized = .failure(
                    ImportError(file: file, line: line, field: "series", reason: reason))
            }
        }
        if case .failure(var error) = lastNormalized {
            error.line = line
            return .failure(error)
        }
        if let violation = SampleRules.violation(of: sample) {
            return .failure(
                ImportError(
                    file: file, line: line, field: violation.field, reason: violation.reason))
        }
        return lastNormalized
    }
}
