import Foundation

/// A piece of a CSV file that begins and ends at record boundaries, so it parses on its own.
struct CSVSlice: Sendable {
    /// The bytes of whole records.
    var bytes: [UInt8]
    /// How far into the file the slice reaches, in bytes.
    var bytesEnd: Int
    /// The slice's first record is longer than the stream's record limit: the slice holds
    /// only its beginning, and the import stops there.
    var isOversized = false
}

/// Cuts a CSV stream into slices of about `sliceBytes` that end where a record ends,
/// honouring quoted fields that hold line breaks. Not thread-safe.
final class CSVSlicer {
    private let stream: ByteStream
    private let sliceBytes: Int
    private var storage: [UInt8] = []
    private var fieldRanges: [Range<Int>] = []

    /// Cuts `stream` from where it stands (after the header).
    init(stream: ByteStream, sliceBytes: Int = 1 << 20) {
        self.stream = stream
        self.sliceBytes = sliceBytes
    }

    /// The next slice, or `nil` at the end of the file.
    ///
    /// - Throws: ``ImportError`` when the file cannot be read.
    func next() throws(ImportError) -> CSVSlice? {
        var wanted = sliceBytes
        while true {
            var slice: [UInt8]?
            let more = try stream.consume(minimum: wanted) { bytes, isFinal in
                if isFinal && bytes.count <= wanted {
                    slice = Array(bytes)
                    return bytes.count
                }
                guard let cut = lastBoundary(in: bytes, before: min(wanted, bytes.count)) else {
                    return 0
                }
                slice = Array(bytes[..<cut])
                return cut
            }
            guard more else { return nil }
            if let slice { return CSVSlice(bytes: slice, bytesEnd: stream.bytesConsumed) }
            // No record ends within `wanted` bytes: look further, up to the record limit.
            if wanted > stream.maximumRecordBytes {
                var head: [UInt8] = []
                _ = try stream.consume { bytes, _ in
                    head = Array(bytes.prefix(64))
                    return 0
                }
                return CSVSlice(bytes: head, bytesEnd: stream.bytesConsumed, isOversized: true)
            }
            wanted = min(wanted * 2, stream.maximumRecordBytes + 1)
        }
    }

    /// Where the last record that ends before `limit` ends, or `nil` when none does.
    private func lastBoundary(in bytes: UnsafeRawBufferPointer, before limit: Int) -> Int? {
        guard let base = bytes.baseAddress, limit > 0 else { return nil }
        if memchr(base, 0x22, limit) == nil {
            // No quotes: every line ending ends a record. A CR ends one unless a LF follows,
            // so a CR is a boundary only when the byte after it is known.
            var index = limit - 1
            while index >= 0 {
                let byte = bytes[index]
                if byte == 0x0A { return index + 1 }
                if byte == 0x0D && index + 1 < bytes.count {
                    return bytes[index + 1] == 0x0A ? index + 2 : index + 1
                }
                index -= 1
            }
            return nil
        }
        // Quotes may hide line breaks: walk the records as the parser will.
        var position = 0
        var boundary: Int?
        while position < limit {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[position...])
            guard
                case let .record(next, _) = CSVRecordScanner.scan(
                    rest, isFinal: false, storage: &storage, fieldRanges: &fieldRanges),
                position + next <= limit
            else { break }
            position += next
            boundary = position
        }
        return boundary
    }
}
