import TrendStore

/// Where an import's blocks come from: a file cut into pieces, each parsed into a
/// ``RecordBlock`` on its own.
///
/// ``BlockPipeline`` calls ``cut()`` one call at a time, in file order, and ``parse(_:)``
/// on as many threads as it runs, so a format whose records can be cut cheaply (CSV at
/// line ends) parses on every core, and one that cannot (XML, JSON lists) does all its
/// work in ``cut()`` and returns the block as the piece.
protocol BlockSource: AnyObject {
    /// A piece of the file, cut but not yet parsed.
    associatedtype Piece

    /// The next piece, or `nil` at the end of the file.
    ///
    /// - Throws: ``ImportError`` when the file cannot be read further.
    func cut() throws(ImportError) -> Piece?

    /// The records of `piece`: may run on several threads at once.
    func parse(_ piece: Piece) -> RecordBlock

    /// The size of the file in bytes, for progress (0 when unknown).
    var totalBytes: Int { get }

    /// The lines before the first block (a header), which its lines count from.
    var linesBefore: Int { get }
}

/// Reads a streaming ``RecordParser`` a block at a time: the formats whose records cannot
/// be cut apart without parsing them.
final class RecordParserBlocks: BlockSource {
    private let parser: any RecordParser
    private let file: String
    private let skipInvalid: Bool
    /// Records per block.
    private let recordsPerBlock: Int
    /// The line the previous block ended on: the next block's lines count from it.
    private var lineBase = 0
    private var ended = false

    init(parser: any RecordParser, file: String, skipInvalid: Bool, recordsPerBlock: Int = 8_192) {
        self.parser = parser
        self.file = file
        self.skipInvalid = skipInvalid
        self.recordsPerBlock = recordsPerBlock
    }

    var totalBytes: Int { parser.totalBytes }

    /// The parser's records carry their own lines: blocks count from the start of the file.
    var linesBefore: Int { 0 }

    func cut() throws(ImportError) -> RecordBlock? {
        guard !ended else { return nil }
        var builder = RecordBlockBuilder(file: file, skipInvalid: skipInvalid)
        var lastLine = lineBase
        while builder.block.records < recordsPerBlock && !builder.hasFailed {
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
            case let .sample(name, unit, kind, sample, line):
                lastLine = max(lastLine, line)
                let relative = line - lineBase
                do {
                    let entry = try builder.entry(
                        series: name, unit: unit, kind: kind, line: relative)
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
        let block = builder.finish(lines: lastLine - lineBase, bytesEnd: parser.bytesConsumed)
        lineBase = lastLine
        return block
    }

    func parse(_ piece: RecordBlock) -> RecordBlock { piece }
}

extension ImportError {
    /// The error with its line moved by `offset`: a file's line made relative to a block
    /// (minus the lines before it), or a block's line made the file's (plus them).
    func movingLine(by offset: Int) -> ImportError {
        var error = self
        error.line = line.map { $0 + offset }
        return error
    }
}
