import Foundation
import TrendStore

/// Reads the importer's CSV: a header naming `series`, `start`, `end` and `value`
/// (suffixes such as `start_epoch_ms` are fine) and optionally `unit` and `kind`
/// (`cumulative` or `discrete`), then one sample per row.
final class SampleCSVParser: RecordParser {
    private let reader: CSVReader
    private let file: String
    private var columns: (series: Int, start: Int, end: Int, value: Int, unit: Int?, kind: Int?)!
    private var names = NameInterner()
    private var units = NameInterner()

    init(stream: ByteStream) throws(ImportError) {
        reader = CSVReader(stream: stream)
        file = stream.path
        try readHeader()
    }

    var bytesConsumed: Int { reader.bytesConsumed }
    var totalBytes: Int { reader.totalBytes }

    private func readHeader() throws(ImportError) {
        let header = try reader.readHeader()
        func column(_ name: String) throws(ImportError) -> Int {
            if let exact = header.firstIndex(of: name) { return exact }
            if let prefixed = header.firstIndex(where: {
                $0.hasPrefix(name + "_") || $0.hasPrefix(name + " ")
            }) {
                return prefixed
            }
            throw ImportError(
                file: file, line: 1, field: name,
                reason:
                    "the header has no \(name) column (it has: \(header.joined(separator: ", ")))")
        }
        columns = (
            try column("series"), try column("start"), try column("end"), try column("value"),
            header.firstIndex(of: "unit"), header.firstIndex(of: "kind")
        )
    }

    func next() throws(ImportError) -> ParsedRecord? {
        guard try reader.nextNonBlank() else { return nil }
        let line = reader.line
        let needed =
            max(
                columns.series, columns.start, columns.end, columns.value, columns.unit ?? 0,
                columns.kind ?? 0) + 1
        guard reader.fieldCount >= needed else {
            return .invalid(
                ImportError(
                    file: file, line: line,
                    reason: "expected at least \(needed) fields, found \(reader.fieldCount)"))
        }
        guard let series = reader.withField(columns.series, { names.intern($0) }) else {
            return .invalid(ImportError(file: file, line: line, field: "series", reason: notUTF8))
        }
        if series.isEmpty {
            return .invalid(
                ImportError(file: file, line: line, field: "series", reason: "is empty"))
        }
        func invalid(_ field: String, _ reason: String) -> ParsedRecord {
            .invalid(ImportError(file: file, line: line, field: field, reason: reason))
        }
        /// The field's text, quoted and cut short, for a message.
        func quoted(_ column: Int) -> String { "\"\(reader.string(column).prefix(40))\"" }
        guard let start = reader.withField(columns.start, TimestampParser.milliseconds) else {
            return invalid("start", "\(quoted(columns.start)): \(TimestampParser.expectation)")
        }
        guard let end = reader.withField(columns.end, TimestampParser.milliseconds) else {
            return invalid("end", "\(quoted(columns.end)): \(TimestampParser.expectation)")
        }
        guard end >= start else {
            return .invalid(
                ImportError(file: file, line: line, field: "end", reason: "is before start"))
        }
        guard let value = reader.withField(columns.value, NumberParser.double) else {
            return invalid("value", "\(quoted(columns.value)) is not a finite number")
        }
        var unit: String?
        if let column = columns.unit {
            guard let text = reader.withField(column, { units.intern($0) }) else {
                return .invalid(ImportError(file: file, line: line, field: "unit", reason: notUTF8))
            }
            unit = text
        }
        var kind: SeriesKind?
        if let column = columns.kind {
            let text = reader.string(column)
            if !text.isEmpty {
                guard let parsed = SeriesKindName.parse(text) else {
                    return invalid("kind", "\(quoted(column)): \(SeriesKindName.expectation)")
                }
                kind = parsed
            }
        }
        return .sample(
            series: series, unit: unit?.isEmpty == true ? nil : unit, kind: kind,
            sample: Sample(startMilliseconds: start, endMilliseconds: end, value: value), line: line
        )
    }
}
