/// An Apple Health export read in the pieces its ``AppleHealthSurvey`` cut it into: the
/// pieces are read off the file in order (``cut()``) and their records parsed on as many
/// threads as the import runs (``parse(_:)``), the writer taking them in file order.
///
/// Each piece begins right after a tag and before a `Record` or `Workout` outside any
/// workout, so it parses alone into the records a single pass would read there; its lines
/// count from its start, which lies on the line the survey noted.
final class AppleHealthPieces: SliceSource {
    /// The bytes between two cuts: how many lines further the next piece begins, and how
    /// far into the file this one reaches.
    struct Piece: Sendable {
        var bytes: [UInt8]
        var lines: Int
        var bytesEnd: Int
    }

    private let stream: ByteStream
    private let survey: AppleHealthSurvey
    private let cuts: [AppleHealthSurvey.Cut]
    private let file: String
    private let skipInvalid: Bool
    private let maximumRecordBytes: Int
    private var nextCut = 0

    /// Reads `stream` (the export from its start, as the survey read it, named
    /// `displayPath` in errors) in the pieces between `cuts` (the survey's).
    init(
        displayPath: String, survey: AppleHealthSurvey, cuts: [AppleHealthSurvey.Cut],
        stream: ByteStream, skipInvalid: Bool
    ) {
        file = displayPath
        self.survey = survey
        self.cuts = cuts
        self.stream = stream
        self.skipInvalid = skipInvalid
        maximumRecordBytes = stream.maximumRecordBytes
    }

    var totalBytes: Int { survey.byteCount }

    /// The longest piece between the survey's cuts.
    var longestPiece: Int { survey.longestPieceBytes }

    /// Each piece's records carry lines from its own start; its slice spans the lines to
    /// the next piece's start, so slices count from the start of the file.
    var linesBefore: Int { 0 }

    func cut() throws(ImportError) -> Piece? {
        guard nextCut < cuts.count else { return nil }
        let start = cuts[nextCut]
        let isLast = nextCut + 1 == cuts.count
        let end =
            isLast
            ? AppleHealthSurvey.Cut(offset: survey.byteCount, line: start.line)
            : cuts[nextCut + 1]
        nextCut += 1
        let length = end.offset - start.offset
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        while bytes.count < length {
            let more = try stream.consume { chunk, _ in
                let taken = min(chunk.count, length - bytes.count)
                bytes.append(contentsOf: chunk[..<taken])
                return taken
            }
            if !more { throw changed() }
        }
        // The survey read to the end here: more bytes mean the file grew between the passes.
        if isLast, try stream.consume({ _, _ in 0 }) { throw changed() }
        return Piece(bytes: bytes, lines: end.line - start.line, bytesEnd: end.offset)
    }

    func parse(_ piece: Piece) -> ParsedSlice {
        let stream = ByteStream(bytes: piece.bytes, path: file)
        stream.maximumRecordBytes = maximumRecordBytes
        let records = RecordParserBlocks(
            parser: AppleHealthParser(displayPath: file, survey: survey, stream: stream),
            file: file, skipInvalid: skipInvalid, recordsPerSlice: .max)
        var slice = records.nextSlice() ?? ParsedSlice()
        slice.lines = piece.lines
        slice.bytesEnd = piece.bytesEnd
        return slice
    }

    private func changed() -> ImportError {
        ImportError(
            file: file,
            reason: "the export changed while it was read (its two passes read different bytes)")
    }
}
