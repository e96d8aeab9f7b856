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
                storage.removeAll(keepingCapacity: true)
                fieldRanges.removeAll(keepingCapacity: true)
                available = bytes.count
                // Fast path: a whole line without quotes is copied once and split on commas.
                if let base = bytes.baseAddress,
                    let (end, next) = LineEnding.find(in: bytes, isFinal: isFinal),
                    memchr(base, 0x22, end) == nil
                {
                    storage.append(contentsOf: bytes[..<end])
                    var fieldStart = 0
                    for index in 0..<end where bytes[index] == 0x2C {
                        fieldRanges.append(fieldStart..<index)
                        fieldStart = index + 1
                    }
                    fieldRanges.append(fieldStart..<end)
                    lineCount += 1
                    complete = true
                    return next
                }
                var lines = 0
                var index = 0
                var fieldStart = 0
                var quoted = false
                var inQuotes = false
                while index < bytes.count {
                    let byte = bytes[index]
                    if inQuotes {
                        if byte == 0x22 {
                            if index + 1 < bytes.count {
                                if bytes[index + 1] == 0x22 {
                                    storage.append(0x22)
                                    index += 2
                                    continue
                                }
                                inQuotes = false
                            } else if !isFinal {
                                return 0
                            } else {
                                inQuotes = false
                            }
                        } else {
                            if byte == 0x0A
                                || (byte == 0x0D && index + 1 < bytes.count
                                    && bytes[index + 1] != 0x0A)
                            {
                                lines += 1
                            }
                            storage.append(byte)
                        }
                    } else if byte == 0x2C {
                        fieldRanges.append(fieldStart..<storage.count)
                        fieldStart = storage.count
                        quoted = false
                    } else if byte == 0x0A || byte == 0x0D {
                        // LF, CRLF or a CR alone ends the record; a CR at the end of the
                        // buffer waits for the next byte to tell which.
                        var next = index + 1
                        if byte == 0x0D {
                            if next == bytes.count && !isFinal { return 0 }
                            if next < bytes.count && bytes[next] == 0x0A { next += 1 }
                        }
                        fieldRanges.append(fieldStart..<storage.count)
                        lineCount += lines + 1
                        complete = true
                        return next
                    } else if byte == 0x22 && storage.count == fieldStart && !quoted {
                        inQuotes = true
                        quoted = true
                    } else {
                        storage.append(byte)
                    }
                    index += 1
                }
                guard isFinal else { return 0 }
                if inQuotes { unterminatedQuote = true; return index }
                fieldRanges.append(fieldStart..<storage.count)
                lineCount += lines + 1
                complete = true
                return index
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
