/// The first pass over an Apple Health `export.xml`: which sources cover what, the export's
/// date, and where the second pass may cut the file into pieces parsed on their own.
///
/// It reads the whole file, so a truncated export (no `</HealthData>`) is refused before
/// anything is written.
struct AppleHealthSurvey: Sendable {
    /// Per quantity (``AppleHealthQuantity/index``), the time each source rank's records cover.
    private(set) var coverage: [[Int: CoverageIntervals]]
    /// The export's `ExportDate`, when it has one.
    private(set) var exportDate: Int64?
    /// Where the second pass may cut, in file order: each right after a tag and before the
    /// start of a `Record` or `Workout` outside any workout (so no piece splits a workout
    /// from its statistics), at least `pieceBytes` apart. `nil` when the file holds a
    /// stretch without such a place longer than the longest piece allowed (a workout that
    /// never ends): the second pass then reads the file as one stream, in bounded memory.
    private(set) var cuts: [Cut]?
    /// The bytes the pass read: the file's length.
    private(set) var byteCount = 0

    /// A place the second pass may cut the file.
    struct Cut: Sendable {
        /// The byte offset the piece after it begins at.
        var offset: Int
        /// The line (1-based) that offset lies on.
        var line: Int
    }

    /// The elements either pass reads; every other is skipped unparsed.
    static let interesting = ["HealthData", "ExportDate", "Record", "Workout", "WorkoutStatistics"]

    /// Reads `stream` (the whole export, named `displayPath` in errors), noting places to
    /// cut about every `pieceBytes` bytes, none of them more than `longestPiece` apart.
    ///
    /// - Throws: ``ImportError`` for a file that is not an Apple Health export, is truncated
    ///   or holds a malformed tag.
    init(stream: ByteStream, displayPath: String, pieceBytes: Int, longestPiece: Int)
        throws(ImportError)
    {
        coverage = Array(repeating: [:], count: AppleHealthQuantity.all.count)
        let scanner = XMLTagScanner(stream: stream, interesting: Self.interesting)
        var sawRoot = false
        var sawRootEnd = false
        var cuts: [Cut] = [Cut(offset: 0, line: 1)]
        var inWorkout = false
        var longestStretch = 0
        do {
            while true {
                let before = Cut(offset: scanner.bytesConsumed, line: scanner.line)
                guard let tag = try scanner.next() else { break }
                let name = tag.name
                if tag.isEnd {
                    if name.elementsEqual("HealthData".utf8) { sawRootEnd = true }
                    if name.elementsEqual("Workout".utf8) { inWorkout = false }
                    continue
                }
                let isRecord = name.elementsEqual("Record".utf8)
                let isWorkout = !isRecord && name.elementsEqual("Workout".utf8)
                if (isRecord || isWorkout) && !inWorkout,
                    let last = cuts.last, before.offset - last.offset >= pieceBytes
                {
                    longestStretch = max(longestStretch, before.offset - last.offset)
                    cuts.append(before)
                }
                if isWorkout && !tag.isSelfClosing { inWorkout = true }
                if name.elementsEqual("HealthData".utf8) { sawRoot = true }
                if name.elementsEqual("ExportDate".utf8) {
                    exportDate = tag.withAttribute(
                        AppleHealthParser.attribute.value, TimestampParser.milliseconds)
                }
                guard isRecord,
                    let quantity = tag.withAttribute(
                        AppleHealthParser.attribute.type, AppleHealthQuantity.of),
                    let start = tag.withAttribute(
                        AppleHealthParser.attribute.startDate, TimestampParser.milliseconds),
                    let end = tag.withAttribute(
                        AppleHealthParser.attribute.endDate, TimestampParser.milliseconds),
                    end >= start
                else { continue }
                coverage[quantity.index][AppleHealthParser.rank(of: tag), default: .init()].add(
                    start: start, end: end)
            }
        } catch {
            throw ImportError(
                file: displayPath, line: error.line, field: error.field, reason: error.reason)
        }
        guard sawRoot else {
            throw ImportError(
                file: displayPath, reason: "no <HealthData> element: not an Apple Health export")
        }
        guard sawRootEnd else {
            throw ImportError(
                file: displayPath,
                reason: "the export ends before </HealthData>: the file is truncated")
        }
        for index in coverage.indices {
            for rank in coverage[index].keys { coverage[index][rank]?.compact() }
        }
        byteCount = scanner.bytesConsumed
        longestStretch = max(longestStretch, byteCount - (cuts.last?.offset ?? 0))
        self.cuts = longestStretch <= longestPiece ? cuts : nil
    }
}
