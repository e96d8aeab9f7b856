import Foundation
import TrendStore

/// Reads newline-delimited JSON: one object per line with `series`, `start`, `end`,
/// `value` and optionally `unit`, `kind`, `source` and `priority` (the source's rank in
/// its series' priority order, 1 first: ``SourceRank``); times as epoch milliseconds or
/// ISO-8601 strings.
final class NDJSONParser: RecordParser {
    private let reader: CSVLineReader
    private let file: String
    /// The fields an object may hold.
    static let knownFields: Set<String> = [
        "series", "start", "end", "value", "unit", "kind", "source", "priority",
    ]
    /// The most distinct unknown fields noted: a file of made-up keys costs no more memory.
    static let unknownFieldLimit = 32
    /// The fields the importer does not read, each with the first line holding it, in the
    /// order met (at most ``unknownFieldLimit``): the import warns of them.
    private(set) var unknownFields: [(name: String, line: Int)] = []

    init(stream: ByteStream) {
        reader = CSVLineReader(stream: stream)
        file = stream.path
    }

    var bytesConsumed: Int { reader.bytesConsumed }
    var totalBytes: Int { reader.totalBytes }

    func next() throws(ImportError) -> ParsedRecord? {
        var line: [UInt8] = []
        repeat {
            guard let next = try reader.nextLine() else { return nil }
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
        noteUnknownFields(of: object, line: lineNumber)
        let strings = Self.strings(of: object, line: line)
        guard let series = strings.series, !series.isEmpty else {
            return invalid("series", "missing or not a non-empty string")
        }
        guard let start = Self.instant(object["start"]) else {
            return invalid("start", TimestampParser.expectation)
        }
        guard let end = Self.instant(object["end"]) else {
            return invalid("end", TimestampParser.expectation)
        }
        guard end >= start else { return invalid("end", "is before start") }
        guard let number = JSONNumber.number(object["value"]),
            number.doubleValue.isFinite
        else {
            return invalid("value", "missing or not a finite number")
        }
        // The number's own text, read exactly (JSONSerialization may round the last digit
        // of a 17-digit value and drops the sign of -0.0).
        let value =
            line.withUnsafeBytes { Self.rawNumber(forKey: "value", in: $0) } ?? number.doubleValue
        let unit = strings.unit
        var kind: SeriesKind?
        if let text = object["kind"], !(text is NSNull) {
            guard let name = text as? String, let parsed = SeriesKindName.parse(name) else {
                return invalid("kind", SeriesKindName.expectation)
            }
            kind = parsed
        }
        if let value = object["source"], !(value is NSNull), strings.source == nil {
            return invalid("source", "not a string")
        }
        var rank: Int?
        if let value = object["priority"], !(value is NSNull) {
            guard let parsed = SourceRank.parse(json: value) else {
                return invalid("priority", SourceRank.expectation)
            }
            rank = parsed
        }
        return .sample(
            series: series, unit: unit?.isEmpty == true ? nil : unit, kind: kind,
            source: strings.source?.isEmpty == true ? nil : strings.source, rank: rank,
            sample: Sample(
                startMilliseconds: start, endMilliseconds: end, value: value),
            line: lineNumber)
    }

    /// Notes the keys of `object` the importer does not read, the first time each is met.
    private func noteUnknownFields(of object: [String: Any], line: Int) {
        guard unknownFields.count < Self.unknownFieldLimit else { return }
        for key in object.keys.sorted() where !Self.knownFields.contains(key) {
            guard !unknownFields.contains(where: { $0.name == key }),
                unknownFields.count < Self.unknownFieldLimit
            else { continue }
            unknownFields.append((key, line))
        }
    }

    /// The number written after the top-level key `key` in a JSON object's bytes, parsed
    /// exactly, or `nil` when it is not found as a plain number.
    static func rawNumber(forKey key: String, in bytes: UnsafeRawBufferPointer) -> Double? {
        let quotedKey = Array("\"\(key)\"".utf8)
        var index = 0
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {  // a string: a key of this object when followed by ':' at depth 1
                let start = index
                index += 1
                while index < bytes.count && bytes[index] != 0x22 {
                    index += bytes[index] == 0x5C ? 2 : 1
                }
                index += 1
                guard depth == 1, index - start == quotedKey.count,
                    bytes[start..<index].elementsEqual(quotedKey)
                else { continue }
                while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) {
                    index += 1
                }
                guard index < bytes.count, bytes[index] == 0x3A else { continue }
                index += 1
                while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) {
                    index += 1
                }
                var end = index
                while end < bytes.count && !",}] \t\r".utf8.contains(bytes[end]) { end += 1 }
                return NumberParser.double(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
            }
            if byte == 0x7B || byte == 0x5B { depth += 1 }
            if byte == 0x7D || byte == 0x5D { depth -= 1 }
            index += 1
        }
        return nil
    }

    /// The `series`, `unit` and `source` strings of a line's object. Foundation's `JSONSerialization`
    /// drops a U+FEFF that opens a string, so a line holding one has them read again by
    /// `JSONDecoder`, which keeps it: a name survives export and import unchanged.
    private static func strings(of object: [String: Any], line: [UInt8]) -> Names {
        let read = Names(
            series: object["series"] as? String, unit: object["unit"] as? String,
            source: object["source"] as? String)
        guard line.firstRange(of: [0xEF, 0xBB, 0xBF]) != nil,
            let exact = try? JSONDecoder().decode(Names.self, from: Data(line))
        else { return read }
        return Names(
            series: exact.series ?? read.series, unit: exact.unit ?? read.unit,
            source: exact.source ?? read.source)
    }

    /// A line's series, unit and source strings, each `nil` when missing or not a string.
    private struct Names: Decodable {
        let series: String?
        let unit: String?
        let source: String?

        init(series: String?, unit: String?, source: String?) {
            (self.series, self.unit, self.source) = (series, unit, source)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            series = try? container.decode(String.self, forKey: .series)
            unit = try? container.decode(String.self, forKey: .unit)
            source = try? container.decode(String.self, forKey: .source)
        }

        private enum Keys: CodingKey { case series, unit, source }
    }

    private static func instant(_ value: Any?) -> Int64? {
        if let text = value as? String {
            return Array(text.utf8).withUnsafeBytes(TimestampParser.milliseconds)
        }
        if let number = JSONNumber.number(value) {
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded() else { return nil }
            return number.int64Value
        }
        return nil
    }
}

/// Splits a stream into lines (LF, CRLF or CR alone), skipping a UTF-8 BOM, with 1-based line numbers.
final class CSVLineReader {
    private let stream: ByteStream
    private(set) var lineNumber = 0
    private var startedFile = false

    init(stream: ByteStream) { self.stream = stream }

    var bytesConsumed: Int { stream.bytesConsumed }
    var totalBytes: Int { stream.totalBytes }

    /// The next line without its ending, or `nil` at the end of the file.
    ///
    /// - Throws: ``ImportError`` for a line longer than the stream's ``ByteStream/maximumRecordBytes``.
    func nextLine() throws(ImportError) -> [UInt8]? {
        if !startedFile {
            startedFile = true
            if try stream.peek(3) == [0xEF, 0xBB, 0xBF] { _ = try stream.consume { _, _ in 3 } }
        }
        var line: [UInt8]?
        var minimum = 1
        while line == nil {
            var available = 0
            let more = try stream.consume(minimum: minimum) { bytes, isFinal in
                available = bytes.count
                guard let end = LineEnding.find(in: bytes, isFinal: isFinal) else {
                    guard isFinal else { return 0 }
                    line = Array(bytes)
                    return bytes.count
                }
                line = Array(bytes[..<end.contentEnd])
                return end.next
            }
            if !more { return nil }
            try stream.allowRecord(of: available + 1, line: lineNumber + 1)
            minimum = available + 1
        }
        lineNumber += 1
        return line
    }
}

/// Where a line ends: at LF, at CRLF, or at a CR not followed by LF (old Mac files).
enum LineEnding {
    /// The first line ending in `bytes`: where the line's content stops and where the next
    /// line starts; `nil` when there is none yet (or a CR is the last byte and more may follow).
    static func find(in bytes: UnsafeRawBufferPointer, from start: Int = 0, isFinal: Bool) -> (
        contentEnd: Int, next: Int
    )? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        let count = bytes.count - start
        let newline = memchr(base + start, 0x0A, count).map {
            base.distance(to: UnsafeRawPointer($0))
        }
        let searchEnd = newline ?? bytes.count
        if let carriage = memchr(base + start, 0x0D, searchEnd - start).map({
            base.distance(to: UnsafeRawPointer($0))
        }) {
            if carriage + 1 == newline { return (carriage, carriage + 2) }
            if carriage + 1 < bytes.count || isFinal { return (carriage, carriage + 1) }
            return nil  // a CR at the end of the buffer: CRLF or CR, the next read tells
        }
        return newline.map { ($0, $0 + 1) }
    }
}
