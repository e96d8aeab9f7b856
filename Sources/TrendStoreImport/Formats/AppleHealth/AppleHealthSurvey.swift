/// The first pass over an Apple Health `export.xml`: the export's date, and where the second
/// pass may cut the file into pieces parsed on their own.
///
/// It reads the whole file, so a truncated export (no `</HealthData>`) is refused before
/// anything is written.
struct AppleHealthSurvey: Sendable {
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
    /// The bytes of the longest piece between two cuts (0 without cuts): what one parsing
    /// thread holds at most.
    private(set) var longestPieceBytes = 0
    /// The model of each source (a record's `sourceName`, entities decoded) whose records
    /// with a `device` all name one model: a record of that source without a `device` (an
    /// older record of the same watch) is that device's too.
    private(set) var soleModels: [[UInt8]: String] = [:]

    /// A place the second pass may cut the file.
    struct Cut: Sendable {
        /// The byte offset the piece after it begins at.
        var offset: Int
        /// The line (1-based) that offset lies on.
        var line: Int
    }

    /// The names of the elements either pass reads; every other is skipped unparsed. A
    /// scanned tag's name is one of these very arrays, so comparing with them is cheap.
    enum Element {
        static let healthData = Array("HealthData".utf8)
        static let exportDate = Array("ExportDate".utf8)
        static let record = Array("Record".utf8)
        static let workout = Array("Workout".utf8)
        static let workoutStatistics = Array("WorkoutStatistics".utf8)
        static let all = [healthData, exportDate, record, workout, workoutStatistics]
    }

    /// Reads `stream` (the whole export, named `displayPath` in errors) on this thread,
    /// noting places to cut about every `pieceBytes` bytes, none of them more than
    /// `longestPiece` apart.
    ///
    /// - Throws: ``ImportError`` for a file that is not an Apple Health export, is truncated
    ///   or holds a malformed tag.
    init(stream: ByteStream, displayPath: String, pieceBytes: Int, longestPiece: Int)
        throws(ImportError)
    {
        try self.init(
            stretches: [Stretch(stream: stream, displayPath: displayPath, pieceBytes: pieceBytes)],
            displayPath: displayPath, longestPiece: longestPiece)
    }

    /// The survey of the whole file from the surveys of its `stretches`, in file order.
    init(stretches: [Stretch], displayPath: String, longestPiece: Int) throws(ImportError) {
        guard stretches.contains(where: \.sawRoot) else {
            throw ImportError(
                file: displayPath, reason: "no <HealthData> element: not an Apple Health export")
        }
        guard stretches.contains(where: \.sawRootEnd) else {
            throw ImportError(
                file: displayPath,
                reason: "the export ends before </HealthData>: the file is truncated")
        }
        var cuts: [Cut] = []
        var linesBefore = 0
        var models: [[UInt8]: Set<String>] = [:]
        for stretch in stretches {
            models.merge(stretch.models) { $0.union($1) }
            exportDate = stretch.exportDate ?? exportDate
            cuts += stretch.cuts.map {
                Cut(offset: byteCount + $0.offset, line: linesBefore + $0.line)
            }
            byteCount += stretch.byteCount
            linesBefore += stretch.lines - 1
        }
        let ends = cuts.dropFirst().map(\.offset) + [byteCount]
        let longest = zip(cuts, ends).map { $1 - $0.offset }.max() ?? 0
        self.cuts = longest <= longestPiece ? cuts : nil
        longestPieceBytes = self.cuts == nil ? 0 : longest
        soleModels = models.compactMapValues { $0.count == 1 ? $0.first : nil }
    }
}

extension AppleHealthSurvey {
    /// What the survey finds in a stretch of the file read on its own, from a place between
    /// two constructs outside any workout: offsets and lines count from the stretch's start.
    struct Stretch: Sendable {
        fileprivate(set) var exportDate: Int64?
        fileprivate(set) var sawRoot = false
        fileprivate(set) var sawRootEnd = false
        /// Places to cut, the stretch's start first.
        fileprivate(set) var cuts: [Cut] = [Cut(offset: 0, line: 1)]
        /// Whether the stretch ends inside a workout.
        fileprivate(set) var endsInWorkout = false
        fileprivate(set) var byteCount = 0
        /// The line its last byte lies on.
        fileprivate(set) var lines = 1
        /// The models each source's records with a `device` name.
        fileprivate(set) var models: [[UInt8]: Set<String>] = [:]

        /// Reads `stream` to its end, noting places to cut at least `pieceBytes` apart.
        ///
        /// - Throws: ``ImportError`` for a malformed tag, or a stream that ends inside one.
        init(stream: ByteStream, displayPath: String, pieceBytes: Int) throws(ImportError) {
            let scanner = XMLTagScanner(stream: stream, interesting: Element.all)
            var inWorkout = false
            // Most records are of the source and model of the one before.
            var last: (name: [UInt8], model: String)?
            do {
                while true {
                    let before = Cut(offset: scanner.bytesConsumed, line: scanner.line)
                    guard let tag = try scanner.next() else { break }
                    let name = tag.name
                    if tag.isEnd {
                        if name == Element.healthData { sawRootEnd = true }
                        if name == Element.workout { inWorkout = false }
                        continue
                    }
                    let isRecord = name == Element.record
                    let isWorkout = !isRecord && name == Element.workout
                    if (isRecord || isWorkout) && !inWorkout,
                        let last = cuts.last, before.offset - last.offset >= pieceBytes
                    {
                        cuts.append(before)
                    }
                    if isRecord,
                        let model = tag.withRawAttribute(
                            AppleHealthParser.attribute.device, AppleHealthDevice.model(raw:)),
                        let name = tag.withAttribute(
                            AppleHealthParser.attribute.sourceName, { Array($0) }),
                        last?.name != name || last?.model != model
                    {
                        models[name, default: []].insert(model)
                        last = (name, model)
                    }
                    if isWorkout && !tag.isSelfClosing { inWorkout = true }
                    if name == Element.healthData { sawRoot = true }
                    if name == Element.exportDate {
                        exportDate = tag.withAttribute(
                            AppleHealthParser.attribute.value, TimestampParser.milliseconds)
                    }
                }
            } catch {
                throw ImportError(
                    file: displayPath, line: error.line, field: error.field, reason: error.reason)
            }
            endsInWorkout = inWorkout
            byteCount = scanner.bytesConsumed
            lines = scanner.line
        }
    }
}
