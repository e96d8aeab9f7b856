import TrendStore

/// Where an import's slices come from: a file cut into pieces, each parsed into a
/// ``ParsedSlice`` on its own.
///
/// ``SlicePipeline`` calls ``cut()`` one call at a time, in file order, and ``parse(_:)``
/// on as many threads as it runs, so a format whose records can be cut cheaply (CSV at
/// line ends) parses on every core, and one that cannot (XML, JSON lists) does all its
/// work in ``cut()`` and returns the slice as the piece.
protocol SliceSource: AnyObject {
    /// A piece of the file, cut but not yet parsed.
    associatedtype Piece

    /// The next piece, or `nil` at the end of the file.
    ///
    /// - Throws: ``ImportError`` when the file cannot be read further.
    func cut() throws(ImportError) -> Piece?

    /// The records of `piece`: may run on several threads at once.
    func parse(_ piece: Piece) -> ParsedSlice

    /// The size of the file in bytes, for progress (0 when unknown).
    var totalBytes: Int { get }

    /// The lines before the first slice (a header), which its lines count from.
    var linesBefore: Int { get }

    /// The most bytes one piece holds: ``SlicePipeline`` runs no more parsing threads than
    /// its memory budget holds pieces of this size.
    var longestPiece: Int { get }
}

/// Reads a streaming ``RecordParser`` a slice at a time: the formats whose records cannot
/// be cut apart without parsing them.
final class RecordParserBlocks: SliceSource {
    private let parser: any RecordParser
    private let file: String
    private let skipInvalid: Bool
    /// Records per slice.
    private let recordsPerSlice: Int
    /// The line the previous slice ended on: the next slice's lines count from it.
    private var lineBase = 0
    private var ended = false

    init(parser: any RecordParser, file: String, skipInvalid: Bool, recordsPerSlice: Int = 8_192) {
        self.parser = parser
        self.file = file
        self.skipInvalid = skipInvalid
        self.recordsPerSlice = recordsPerSlice
    }

    var totalBytes: Int { parser.totalBytes }

    /// The parser's records carry their own lines: slices count from the start of the file.
    var linesBefore: Int { 0 }

    /// A slice is parsed as it is cut, on the writer's thread: no piece waits for a parser.
    var longestPiece: Int { 0 }

    func cut() throws(ImportError) -> ParsedSlice? { nextSlice() }

    /// The parser's next `recordsPerSlice` records (fewer at the end, or up to a record
    /// that stops the import) as a slice; `nil` after the last.
    func nextSlice() -> ParsedSlice? {
        guard !ended else { return nil }
        var builder = ParsedSliceBuilder(file: file, skipInvalid: skipInvalid)
        var lastLine = lineBase
        while builder.slice.records < recordsPerSlice && !builder.hasFailed {
            let record: ParsedRecord?
            do {
                record = try parser.next()
            } catch {
                builder.fail(error.movingLine(by: -lineBase))
                break
            }
            guard let record else {
                ended = true
                break
            }
            builder.countRecord()
            switch record {
            case let .sample(name, unit, kind, source, rank, sample, line):
                lastLine = max(lastLine, line)
                let relative = line - lineBase
                do {
                    let entry = try builder.entry(
                        series: name, unit: unit, kind: kind, source: source, rank: rank,
                        line: relative)
                    builder.add(sample, entry: entry, line: relative)
                } catch {
                    builder.invalid(error)
                }
            case let .ignored(reason):
                builder.ignored(reason)
            case let .invalid(error):
                lastLine = max(lastLine, error.line ?? 0)
                builder.invalid(error.movingLine(by: -lineBase))
            }
        }
        if builder.hasFailed { ended = true }
        let slice = builder.finish(lines: lastLine - lineBase, bytesEnd: parser.bytesConsumed)
        lineBase = lastLine
        return slice
    }

    func parse(_ piece: ParsedSlice) -> ParsedSlice { piece }
}

extension ImportError {
    /// The error with its line moved by `offset`: a file's line made relative to a slice
    /// (minus the lines before it), or a slice's line made the file's (plus them).
    func movingLine(by offset: Int) -> ImportError {
        var error = self
        error.line = line.map { $0 + offset }
        return error
    }
}
