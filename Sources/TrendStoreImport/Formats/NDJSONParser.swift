import Foundation
import TrendStore

/// Reads newline-delimited JSON: one object per line with `series`, `start`, `end`,
/// `value` and optionally `unit`; times as epoch milliseconds or ISO-8601 strings.
final class NDJSONParser: RecordParser {
    private let reader: CSVLineReader
    private let file: String

    init(stream: ByteStream) {
        reader = CSVLineReader(stream: stream)
        file = stream.path
    }

    var bytesConsumed: Int { reader.bytesConsumed }
    var totalBytes: Int { reader.totalBytes }

    func next() throws(ImportError) -> ParsedRecord? {
        var line: [UInt8] = []
        repeat {
            guard let next = reader.nextLine() else { return nil }
            line = next
        } while line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        let lineNumber = reader.lineNumber
        func invalid(_ field: String?, _ reason: String) -> ParsedRecord {
            .invalid(ImportError(file: file, line: lineNumber, field: field, reason: reason))
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
        else {
            return invalid(nil, "not a JSON object")
        }
        guard let series = object["series"] as? String, !series.isEmpty else {
            return invalid("series", "missing or not a non-empty string")
        }
        guard let start = Self.instant(object["start"]) else {
            return invalid("start", TimestampParser.expectation)
        }
        guard let end = Self.instant(object["end"]) else {
            return invalid("end", TimestampParser.expectation)
        }
        guard end >= start else { return invalid("end", "is before start") }
        guard let number = object["value"] as? NSNumber, !(object["value"] is Bool),
            number.doubleValue.isFinite
        else {
            return invalid("value", "missing or not a finite number")
        }
        let unit = object["unit"] as? String
        return .sample(
            series: series, unit: unit?.isEmpty == true ? nil : unit,
            sample: Sample(
                startMilliseconds: start, endMilliseconds: end, value: number.doubleValue),
            line: lineNumber)
    }

    private static func instant(_ value: Any?) -> Int64? {
        if let text = value as? String {
            return Array(text.utf8).withUnsafeBytes(TimestampParser.milliseconds)
        }
        if let number = value as? NSNumber, !(value is Bool) {
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded() else { return nil }
            return number.int64Value
        }
        return nil
    }
}

/// Splits a stream into lines (LF or CRLF), skipping a UTF-8 BOM, with 1-based line numbers.
final class CSVLineReader {
    private let stream: ByteStream
    private(set) var lineNumber = 0
    private var startedFile = false

    init(stream: ByteStream) { self.stream = stream }

    var bytesConsumed: Int { stream.bytesConsumed }
    var totalBytes: Int { stream.totalBytes }

    func nextLine() -> [UInt8]? {
        if !startedFile {
            startedFile = true
            if stream.peek(3) == [0xEF, 0xBB, 0xBF] { _ = stream.consume { _, _ in 3 } }
        }
        var line: [UInt8]?
        var minimum = 1
        while line == nil {
            var available = 0
            let more = stream.consume(minimum: minimum) { bytes, isFinal in
                available = bytes.count
                if let newline = bytes.firstIndex(of: 0x0A) {
                    line = Array(bytes[..<newline])
                    return newline + 1
                }
                guard isFinal else { return 0 }
                line = Array(bytes)
                return bytes.count
            }
            if !more { return nil }
            minimum = available + 1
        }
        lineNumber += 1
        if line?.last == 0x0D { line?.removeLast() }
        return line
    }
}
