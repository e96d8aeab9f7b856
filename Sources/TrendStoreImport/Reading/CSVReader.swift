import Foundation

/// Reads CSV records (RFC 4180) from a stream: quoted fields may hold commas, doubled
/// quotes and line breaks; LF, CRLF and a CR alone (old Mac files) end a record; a UTF-8
/// BOM is skipped. A record longer than the stream's ``ByteStream/maximumRecordBytes`` is an error.
final class CSVReader {
    private let stream: ByteStream
    /// The bytes of the current record's fields, unescaped.
    private var storage: [UInt8] = []
    /// Each field's range in `storage`.
    private(set) var fieldRanges: [Range<Int>] = []
    /// The line the current record starts on, 1-based.
    private(set) var line = 0
    private var nextLine = 1
    private var startedFile = false

    init(stream: ByteStream) {
        self.stream = stream
        storage.reserveCapacity(256)
    }

    var fieldCount: Int { fieldRanges.count }
    var bytesConsumed: Int { stream.bytesConsumed }
    var totalBytes: Int { stream.totalBytes }

    /// Calls `body` with the bytes of field `index`.
    @inline(__always)
    func withField<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes {
            try body(UnsafeRawBufferPointer(rebasing: $0[fieldRanges[index]]))
        }
    }

    /// Field `index` as a string (invalid UTF-8 is repaired with U+FFFD).
    func string(_ index: Int) -> String {
        withField(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the current record is one empty field (a blank line).
    var isBlank: Bool { fieldRanges.count == 1 && fieldRanges[0].isEmpty }

    /// Reads the header record's fields, trimmed and lowercased.
    ///
    /// - Throws: ``ImportError`` when the file is empty or its first record cannot be read.
    func readHeader() throws(ImportError) -> [String] {
        do {
            guard try next() else {
                throw ImportError(file: stream.path, reason: "the file is empty")
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(
                file: stream.path, line: 1, reason: (error as? FieldError)?.reason ?? "\(error)")
        }
        return (0..<fieldCount).map { string($0).trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Reads the next record that is not a blank line; `false` at the end of the file.
    func nextNonBlank() throws(ImportError) -> Bool {
        repeat {
            do {
                guard try next() else { return false }
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(
                    file: stream.path, line: line,
                    reason: (error as? FieldError)?.reason ?? "\(error)")
            }
        } while isBlank
        return true
    }

    /// The line after the current record, 1-based: how many lines the records read so far span, plus one.
    var lineAfter: Int { nextLine }

    /// Reads the next record; `false` at the end of the file.
    ///
    /// - Throws: ``FieldError`` when the file ends inside a quoted field.
    func next() throws -> Bool {
        if !startedFile {
            startedFile = true
            if try stream.peek(3) == [0xEF, 0xBB, 0xBF] { _ = try stream.consume { _, _ in 3 } }
        }
        line = nextLine
        // Scan into locals: class properties touched per byte cost an exclusivity check each.
        var storage = self.storage
        var fieldRanges = self.fieldRanges
        self.storage = []
        self.fieldRanges = []
        defer {
            self.storage = storage
            self.fieldRanges = fieldRanges
        }
        var lineCount = nextLine
        var minimum = 1
        while true {
            var complete = false
            var unterminatedQuote = false
            var available = 0
            let more = try stream.consume(minimum: minimum) { bytes, isFinal in
                available = bytes.count
                switch CSVRecordScanner.scan(
                    bytes, isFinal: isFinal, storage: &storage, fieldRanges: &fieldRanges)
                {
                case let .record(next, lines):
                    lineCount += lines
                    complete = true
                    return next
                case .needsMore:
                    return 0
                case let .unterminatedQuote(consumed):
                    unterminatedQuote = true
                    return consumed
                }
            }
            nextLine = lineCount
            if unterminatedQuote {
                throw FieldError(field: nil, reason: "the file ends inside a quoted field")
            }
            if complete { return true }
            if !more { return false }
            // The record runs past the buffered bytes: read more, within the limit.
            try stream.allowRecord(of: available + 1, line: line)
            minimum = available + 1
        }
    }
}
