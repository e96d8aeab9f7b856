import Foundation
import TrendStore

/// Reads Strava's bulk-export `activities.csv`: one sample per activity in a series
/// named after its type (`Run`, `Ride`, …), valued at its distance in metres, lasting
/// its elapsed time, starting at its `Activity Date` (UTC).
///
/// Real files repeat header names: the first `Elapsed Time` and `Distance` are in
/// display units (kilometres or miles, metres for swims, written like `"1,025"`), the
/// second pair in seconds and metres. Columns are therefore found by name and
/// occurrence, preferring the second pair; a file with one `Distance` column is read as
/// kilometres (metres for swims). The older snake_case layout (`activity_type`,
/// `elapsed_time`, …) is read the same way. Column sets differ between export years;
/// only the columns named here are needed.
final class StravaCSVParser: RecordParser {
    private let reader: CSVReader
    private let file: String
    private var columns:
        (date: Int, type: Int, elapsed: Int, distance: Int, distanceIsMetres: Bool)!

    init(stream: ByteStream) throws(ImportError) {
        reader = CSVReader(stream: stream)
        file = stream.path
        let header = try reader.readHeader().map { $0.replacingOccurrences(of: "_", with: " ") }
        func positions(_ name: String) -> [Int] { header.indices.filter { header[$0] == name } }
        func required(_ names: [String]) throws(ImportError) -> [Int] {
            for name in names where !positions(name).isEmpty { return positions(name) }
            throw ImportError(
                file: file, line: 1, field: names[0],
                reason: "the header has no \(names[0]) column: not a Strava activities.csv")
        }
        let date = try required(["activity date", "start date", "date"])[0]
        let type = try required(["activity type", "type"])[0]
        let elapsed = try required(["elapsed time"])
        let distance = try required(["distance"])
        columns = (date, type, elapsed.last!, distance.last!, distance.count > 1)
    }

    var bytesConsumed: Int { reader.bytesConsumed }
    var totalBytes: Int { reader.totalBytes }

    func next() throws(ImportError) -> ParsedRecord? {
        guard try reader.nextNonBlank() else { return nil }
        let line = reader.line
        let needed = max(columns.date, columns.type, columns.elapsed, columns.distance) + 1
        guard reader.fieldCount >= needed else {
            return .invalid(
                ImportError(
                    file: file, line: line,
                    reason: "expected at least \(needed) fields, found \(reader.fieldCount)"))
        }
        let type = reader.string(columns.type).trimmingCharacters(in: .whitespaces)
        guard !type.isEmpty else {
            return .invalid(
                ImportError(file: file, line: line, field: "Activity Type", reason: "is empty"))
        }
        let dateText = reader.string(columns.date)
        guard let start = StravaActivityDate.milliseconds(dateText) else {
            return .invalid(
                ImportError(
                    file: file, line: line, field: "Activity Date",
                    reason: "\"\(dateText)\" is not a date like \"Oct 6, 2022, 11:19:20 PM\""))
        }
        let elapsedText = reader.string(columns.elapsed)
        guard let elapsed = Self.number(elapsedText), elapsed >= 0 else {
            return .invalid(
                ImportError(
                    file: file, line: line, field: "Elapsed Time",
                    reason: "\"\(elapsedText)\" is not a number of seconds"))
        }
        let distanceText = reader.string(columns.distance)
        guard let distance = distanceText.isEmpty ? 0 : Self.number(distanceText), distance >= 0
        else {
            return .invalid(
                ImportError(
                    file: file, line: line, field: "Distance",
                    reason: "\"\(distanceText)\" is not a distance"))
        }
        let metres =
            columns.distanceIsMetres || type.lowercased().contains("swim")
            ? distance : distance * 1000
        return StravaActivity.record(
            type: type, start: start, elapsedSeconds: elapsed, metres: metres, line: line)
    }

    /// A number as Strava and spreadsheets write it: `1,025`, `10123.4`, ` 7 `.
    static func number(_ text: String) -> Double? {
        let cleaned = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(
            of: ",", with: "")
        return Array(cleaned.utf8).withUnsafeBytes(NumberParser.double)
    }
}
