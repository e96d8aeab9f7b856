import Foundation

/// Splits one CSV record (RFC 4180) off the front of a buffer: quoted fields may hold
/// commas, doubled quotes and line breaks; LF, CRLF and a CR alone end a record.
enum CSVRecordScanner {
    /// What ``scan(_:isFinal:storage:fieldRanges:)`` found.
    enum Outcome {
        /// A whole record: the next record starts at `next`; it spanned `lines` lines.
        case record(next: Int, lines: Int)
        /// The record runs past the buffer: scan again with more bytes.
        case needsMore
        /// The buffer is the end of the file and ends inside a quoted field.
        case unterminatedQuote(consumed: Int)
    }

    /// Scans the record at the start of `bytes`, putting its unescaped fields in
    /// `storage` and their ranges in `fieldRanges` (both emptied first).
    ///
    /// - Parameter isFinal: Whether `bytes` ends the file (else a record that reaches the
    ///   end of the buffer, or a CR that is its last byte, waits for more).
    static func scan(
        _ bytes: UnsafeRawBufferPointer, isFinal: Bool, storage: inout [UInt8],
        fieldRanges: inout [Range<Int>]
    ) -> Outcome {
        storage.removeAll(keepingCapacity: true)
        fieldRanges.removeAll(keepingCapacity: true)
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
            return .record(next: next, lines: 1)
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
                        return .needsMore
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == 0x0A
                        || (byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] != 0x0A)
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
                // LF, CRLF or a CR alone ends the record; a CR at the end of the buffer
                // waits for the next byte to tell which.
                var next = index + 1
                if byte == 0x0D {
                    if next == bytes.count && !isFinal { return .needsMore }
                    if next < bytes.count && bytes[next] == 0x0A { next += 1 }
                }
                fieldRanges.append(fieldStart..<storage.count)
                return .record(next: next, lines: lines + 1)
            } else if byte == 0x22 && storage.count == fieldStart && !quoted {
                inQuotes = true
                quoted = true
            } else {
                storage.append(byte)
            }
            index += 1
        }
        guard isFinal else { return .needsMore }
        if inQuotes { return .unterminatedQuote(consumed: index) }
        fieldRanges.append(fieldStart..<storage.count)
        return .record(next: index, lines: lines + 1)
    }
}
