import Foundation
import TrendStore

/// Reads the importer's CSV: a header naming `series`, `start`, `end` and `value`
/// (suffixes such as `start_epoch_ms` are fine) and optionally `unit`, `kind`
/// (`cumulative` or `discrete`), `source` (the device or app; empty: the import's
/// default source) and `priority` (the source's rank in its series' priority order, 1
/// first; empty: unranked), in any order, then one sample per row. Other columns are listed in
/// ``unknownColumns`` (the import warns of them) and left out.
///
/// The file is cut into slices at record ends (``CSVSlicer``), and each slice is parsed
/// in place, on any thread: fields are read straight from the slice's bytes, numbers by
/// ``NumberParser`` and ``TimestampParser``, and a row naming the same series, unit and
/// kind as the row before costs no string at all. Rows with quotes go through
/// ``CSVRecordScanner``.
final class SampleCSVParser: SliceSource {
    /// The header's columns.
    struct Columns: Sendable {
        let series: Int, start: Int, end: Int, value: Int, unit: Int?, kind: Int?, source: Int?
        let priority: Int?
        /// How many fields the columns read span.
        let needed: Int
        /// How many fields the header has, and so every row.
        let count: Int

        init(
            series: Int, start: Int, end: Int, value: Int, unit: Int?, kind: Int?, source: Int?,
            priority: Int?, count: Int
        ) {
            (self.series, self.start, self.end, self.value) = (series, start, end, value)
            (self.unit, self.kind, self.source, self.count) = (unit, kind, source, count)
            self.priority = priority
            needed =
                max(series, start, end, value, unit ?? 0, kind ?? 0, source ?? 0, priority ?? 0)
                + 1
        }
    }

    private let slicer: CSVSlicer
    private let file: String
    private let columns: Columns
    private let skipInvalid: Bool
    private let maximumRecordBytes: Int
    private let stream: ByteStream
    /// The lines of the header.
    let linesBefore: Int
    /// The header's columns the importer does not read, in order.
    let unknownColumns: [String]
    /// A piece is cut at the first line end past its slice's bytes: at most a slice and a record.
    let longestPiece: Int

    /// Reads the header of `stream`.
    ///
    /// - Throws: ``ImportError`` when the header lacks a required column.
    init(stream: ByteStream, skipInvalid: Bool, sliceBytes: Int = 1 << 20) throws(ImportError) {
        let reader = CSVReader(stream: stream)
        let header = try reader.readHeader()
        file = stream.path
        self.stream = stream
        self.skipInvalid = skipInvalid
        maximumRecordBytes = stream.maximumRecordBytes
        linesBefore = reader.lineAfter - 1
        slicer = CSVSlicer(stream: stream, sliceBytes: sliceBytes)
        let (piece, overflow) = sliceBytes.addingReportingOverflow(stream.maximumRecordBytes)
        longestPiece = overflow ? Int.max : piece
        let file = self.file
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
        columns = Columns(
            series: try column("series"), start: try column("start"), end: try column("end"),
            value: try column("value"), unit: header.firstIndex(of: "unit"),
            kind: header.firstIndex(of: "kind"), source: header.firstIndex(of: "source"),
            priority: header.firstIndex(of: "priority"), count: header.count)
        let read = [
            columns.series, columns.start, columns.end, columns.value, columns.unit, columns.kind,
            columns.source, columns.priority,
        ]
        unknownColumns = header.indices.filter { !read.contains($0) }.map { header[$0] }
    }

    var totalBytes: Int { stream.totalBytes }

    func cut() throws(ImportError) -> CSVSlice? { try slicer.next() }

    func parse(_ slice: CSVSlice) -> ParsedSlice {
        var parse = SliceParse(
            file: file, columns: columns, skipInvalid: skipInvalid,
            maximumRecordBytes: maximumRecordBytes)
        if slice.isOversized {
            parse.builder.fail(
                ImportError(
                    file: file, line: 1,
                    reason: ByteStream.recordTooLong(maximumRecordBytes)))
            return parse.builder.finish(lines: 0, bytesEnd: slice.bytesEnd)
        }
        let lines = slice.bytes.withUnsafeBytes { parse.run($0) }
        return parse.builder.finish(lines: lines, bytesEnd: slice.bytesEnd)
    }
}

/// The parse of one slice: its rows, read in place.
private struct SliceParse {
    let file: String
    let columns: SampleCSVParser.Columns
    let maximumRecordBytes: Int
    var builder: ParsedSliceBuilder
    /// A quoted row's unescaped fields.
    private var storage: [UInt8] = []
    private var storageRanges: [Range<Int>] = []
    /// The previous row's series, unit, kind, source and priority fields (offsets into the
    /// slice) and entry.
    private var previous:
        (
            series: Range<Int>, unit: Range<Int>, kind: Range<Int>, source: Range<Int>,
            priority: Range<Int>, entry: Int
        )?

    init(file: String, columns: SampleCSVParser.Columns, skipInvalid: Bool, maximumRecordBytes: Int)
    {
        self.file = file
        self.columns = columns
        self.maximumRecordBytes = maximumRecordBytes
        builder = ParsedSliceBuilder(file: file, skipInvalid: skipInvalid)
    }

    /// Parses every row of `bytes`; returns how many lines they span.
    mutating func run(_ bytes: UnsafeRawBufferPointer) -> Int {
        // The bounds of a row's first `needed` fields (the columns read), starts then ends.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * columns.needed) {
            run(bytes, bounds: CSVFieldBounds(pointer: $0.baseAddress!, capacity: columns.needed))
        }
    }

    private mutating func run(_ bytes: UnsafeRawBufferPointer, bounds: CSVFieldBounds) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var line = 1
        var position = 0
        while position < count && !builder.hasFailed {
            // Split the row on commas up to its line ending, unless it holds a quote.
            var fields = 0
            var fieldStart = position
            var index = position
            var quoted = false
            // Only bytes below 0x2D matter: commas, line endings and quotes are among them.
            while true {
                index = ByteSearch.first(below: 0x2D, in: base, from: index, to: count) ?? count
                if index == count { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == 0x2C {
                    bounds.add(&fields, fieldStart, index)
                    fieldStart = index + 1
                } else if byte == 0x0A || byte == 0x0D {
                    break
                } else if byte == 0x22 {
                    quoted = true
                    break
                }
                index += 1
            }
            let lines: Int
            let next: Int
            if quoted {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[position...])
                switch CSVRecordScanner.scan(
                    rest, isFinal: true, storage: &storage, fieldRanges: &storageRanges)
                {
                case let .record(after, spanned):
                    next = position + after
                    lines = spanned
                case .needsMore, .unterminatedQuote:
                    builder.fail(
                        ImportError(
                            file: file, line: line,
                            reason: "the file ends inside a quoted field"))
                    return line
                }
            } else {
                bounds.add(&fields, fieldStart, index)
                lines = 1
                if index < count && base.load(fromByteOffset: index, as: UInt8.self) == 0x0D
                    && index + 1 < count
                    && base.load(fromByteOffset: index + 1, as: UInt8.self) == 0x0A
                {
                    next = index + 2
                } else {
                    next = min(index + 1, count)
                }
            }
            if next - position > maximumRecordBytes {
                builder.fail(
                    ImportError(
                        file: file, line: line,
                        reason: ByteStream.recordTooLong(maximumRecordBytes)))
                return line
            }
            if quoted {
                previous = nil
                fields = 0
                for range in storageRanges {
                    bounds.add(&fields, range.lowerBound, range.upperBound)
                }
                if !(fields == 1 && bounds.isEmpty(0)) {
                    let unescaped = storage
                    unescaped.withUnsafeBytes {
                        row(
                            $0.baseAddress ?? base, bounds, fields: fields, line: line,
                            inSlice: false)
                    }
                }
            } else if !(fields == 1 && bounds.isEmpty(0)) {
                row(base, bounds, fields: fields, line: line, inSlice: true)
            }
            line += lines
            position = next
        }
        return line - 1
    }

    /// Reads one row whose fields are in `base` (the slice when `inSlice`, else the
    /// unescaped copy of a quoted row).
    private mutating func row(
        _ base: UnsafeRawPointer, _ bounds: CSVFieldBounds, fields: Int, line: Int, inSlice: Bool
    ) {
        @inline(__always)
        func field(_ index: Int) -> UnsafeRawBufferPointer { bounds.field(index, in: base) }
        func quoted(_ index: Int) -> String { Self.quoted(field(index)) }
        builder.countRecord()
        guard fields == columns.count else {
            // A row of more fields than the header most often has a decimal comma: read
            // by position, its value would silently be another number.
            builder.invalid(
                ImportError(
                    file: file, line: line,
                    reason:
                        "has \(fields) fields where the header has \(columns.count) (quote a field that holds a comma)"
                ))
            return
        }
        let seriesRange = bounds.range(columns.series)
        let unitRange = columns.unit.map(bounds.range) ?? 0..<0
        let kindRange = columns.kind.map(bounds.range) ?? 0..<0
        let sourceRange = columns.source.map(bounds.range) ?? 0..<0
        let priorityRange = columns.priority.map(bounds.range) ?? 0..<0
        var entry: Int?
        if inSlice, let previous,
            same(base, previous.series, seriesRange), same(base, previous.unit, unitRange),
            same(base, previous.kind, kindRange), same(base, previous.source, sourceRange),
            same(base, previous.priority, priorityRange)
        {
            entry = previous.entry
        } else if seriesRange.isEmpty {
            return invalid("series", "is empty", line)
        } else if String(validating: field(columns.series), as: UTF8.self) == nil {
            return invalid("series", notUTF8, line)
        }
        guard let start = TimestampParser.milliseconds(field(columns.start)) else {
            return invalid(
                "start", "\(quoted(columns.start)): \(TimestampParser.expectation)", line)
        }
        guard let end = TimestampParser.milliseconds(field(columns.end)) else {
            return invalid(
                "end", "\(quoted(columns.end)): \(TimestampParser.expectation)", line)
        }
        guard end >= start else { return invalid("end", "is before start", line) }
        guard let value = NumberParser.double(field(columns.value)) else {
            return invalid(
                "value",
                "\(quoted(columns.value)) \(NumberParser.problem(field(columns.value)))", line)
        }
        if entry == nil {
            entry = resolveEntry(base, bounds, line: line)
            previous =
                inSlice
                ? entry.map { (seriesRange, unitRange, kindRange, sourceRange, priorityRange, $0) }
                : nil
        }
        guard let entry else { return }
        builder.add(
            Sample(startMilliseconds: start, endMilliseconds: end, value: value), entry: entry,
            line: line)
    }

    /// The entry of the current row's series, unit and kind, or `nil` when one is malformed.
    private mutating func resolveEntry(
        _ base: UnsafeRawPointer, _ bounds: CSVFieldBounds, line: Int
    ) -> Int? {
        func field(_ index: Int) -> UnsafeRawBufferPointer { bounds.field(index, in: base) }
        func quoted(_ index: Int) -> String { Self.quoted(field(index)) }
        let series = String(decoding: field(columns.series), as: UTF8.self)
        var source: String?
        if let column = columns.source {
            guard let text = String(validating: field(column), as: UTF8.self) else {
                invalid("source", notUTF8, line)
                return nil
            }
            source = text.isEmpty ? nil : text
        }
        var unit: String?
        if let column = columns.unit {
            guard let text = String(validating: field(column), as: UTF8.self) else {
                invalid("unit", notUTF8, line)
                return nil
            }
            unit = text.isEmpty ? nil : text
        }
        var kind: SeriesKind?
        if let column = columns.kind {
            let text = String(decoding: field(column), as: UTF8.self)
            if !text.isEmpty {
                guard let parsed = SeriesKindName.parse(text) else {
                    invalid("kind", "\(quoted(column)): \(SeriesKindName.expectation)", line)
                    return nil
                }
                kind = parsed
            }
        }
        var rank: Int?
        if let column = columns.priority, !field(column).isEmpty {
            guard let parsed = SourceRank.parse(field(column)) else {
                invalid("priority", "\(quoted(column)): \(SourceRank.expectation)", line)
                return nil
            }
            rank = parsed
        }
        do {
            return try builder.entry(
                series: series, unit: unit, kind: kind, source: source, rank: rank, line: line)
        } catch {
            builder.invalid(error)
            return nil
        }
    }

    /// Whether the bytes at `lhs` and `rhs` of `base` are equal.
    @inline(__always)
    private func same(_ base: UnsafeRawPointer, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        lhs.count == rhs.count
            && (lhs.isEmpty || memcmp(base + lhs.lowerBound, base + rhs.lowerBound, lhs.count) == 0)
    }

    /// The field's text, quoted and cut short, for a message.
    private static func quoted(_ field: UnsafeRawBufferPointer) -> String {
        "\"\(String(decoding: field, as: UTF8.self).prefix(40))\""
    }

    private mutating func invalid(_ field: String, _ reason: String, _ line: Int) {
        builder.invalid(ImportError(file: file, line: line, field: field, reason: reason))
    }
}
