import TrendStore

/// The records of one stretch of a file, parsed and validated, ready for the writer.
///
/// Its samples are in file order, cut into runs of one entry each; an entry is a series
/// with the unit and kind its records named, so a record naming another unit starts a new
/// entry and the writer can check it against the file's earlier records at the right line.
/// Lines count from the end of the previous slice: the writer, which takes slices in
/// order, adds the lines before.
struct ParsedSlice: Sendable {
    /// A series as the slice's records named it.
    struct Entry: Sendable {
        /// The series' normalised name.
        var series: String
        /// The unit the records named, or `nil` when they named none.
        var unit: String?
        /// The kind the records named, or `nil` when they named none.
        var kind: SeriesKind?
        /// The source the records named (normalised), or `nil` when they named none.
        var source: String?
        /// The rank the records gave their source in the series' priority order, or `nil`.
        var rank: Int?
        /// The first line naming this series with this unit, kind and source, relative to the
        /// slice.
        var line: Int
    }

    /// The entries the runs refer to.
    var entries: [Entry] = []
    /// Consecutive samples of one entry: the entry's index and where the run ends in `samples`.
    var runs: [(entry: Int, end: Int)] = []
    /// The samples, in file order.
    var samples: [Sample] = []
    /// Records read, valid or not.
    var records = 0
    /// Malformed records skipped (with ``ImportOptions/skipInvalid``).
    var skipped = 0
    /// The first few skipped records' errors, lines relative to the slice.
    var skippedExamples: [ImportError] = []
    /// Well-formed records the format's rules leave out, by reason.
    var ignored: [String: Int] = [:]
    /// The error that stops the import after this slice's samples, line relative to the slice.
    var failure: ImportError?
    /// The lines this slice spans.
    var lines = 0
    /// How far into the file the slice reaches, in bytes, for progress.
    var bytesEnd = 0

    /// How many skipped records' examples a summary keeps.
    static let skippedExampleLimit = 5
}

/// Builds a ``ParsedSlice`` record by record: validates each sample against the store's
/// rules (``RecordValidator``), skips or stops at malformed records as the options say,
/// and keeps the runs.
struct ParsedSliceBuilder {
    private(set) var slice = ParsedSlice()
    private var validator: RecordValidator
    private let skipInvalid: Bool
    private var currentEntry = -1
    /// The entry asked for last: most records name the same series as the one before.
    private var lastEntry:
        (series: String, unit: String?, kind: SeriesKind?, source: String?, rank: Int?, index: Int)?

    /// A builder for records of `file`.
    init(file: String, skipInvalid: Bool) {
        validator = RecordValidator(file: file)
        self.skipInvalid = skipInvalid
    }

    /// Whether a record has stopped the import: nothing more is added then.
    private(set) var hasFailed = false

    /// The index of the entry for `series` with `unit`, `kind`, `source` and `rank`, adding
    /// it when new.
    ///
    /// - Throws: ``ImportError`` naming the line when the series or source name breaks the
    ///   store's rules.
    mutating func entry(
        series: String, unit: String?, kind: SeriesKind?, source: String? = nil,
        rank: Int? = nil, line: Int
    ) throws(ImportError) -> Int {
        if let lastEntry, lastEntry.series == series, lastEntry.unit == unit,
            lastEntry.kind == kind, lastEntry.source == source, lastEntry.rank == rank
        {
            return lastEntry.index
        }
        let name = try validator.validate(series: series, line: line)
        let sourceName = try source.map { (text) throws(ImportError) in
            try validator.validate(source: text, line: line)
        }
        let index =
            slice.entries.firstIndex {
                $0.series == name && $0.unit == unit && $0.kind == kind && $0.source == sourceName
                    && $0.rank == rank
            } ?? slice.entries.count
        if index == slice.entries.count {
            slice.entries.append(
                ParsedSlice.Entry(
                    series: name, unit: unit, kind: kind, source: sourceName, rank: rank,
                    line: line))
        }
        lastEntry = (series, unit, kind, source, rank, index)
        return index
    }

    /// Adds a sample of entry `entry`, read on `line`, after checking it against ``SampleRules``.
    @inline(__always)
    mutating func add(_ sample: Sample, entry: Int, line: Int) {
        if let violation = SampleRules.violation(of: sample) {
            invalid(
                ImportError(
                    file: validator.file, line: line, field: violation.field,
                    reason: violation.reason))
            return
        }
        if entry != currentEntry {
            closeRun()
            currentEntry = entry
        }
        slice.samples.append(sample)
    }

    /// Counts a malformed record: skipped when the options allow it, else it stops the import.
    mutating func invalid(_ error: ImportError) {
        guard skipInvalid else {
            fail(error)
            return
        }
        slice.skipped += 1
        if slice.skippedExamples.count < ParsedSlice.skippedExampleLimit {
            slice.skippedExamples.append(error)
        }
    }

    /// Counts a well-formed record the format leaves out.
    mutating func ignored(_ reason: String) { slice.ignored[reason, default: 0] += 1 }

    /// Counts a record read, whatever becomes of it.
    mutating func countRecord() { slice.records += 1 }

    /// Records an error that stops the import (a file that cannot be read further).
    mutating func fail(_ error: ImportError) {
        slice.failure = error
        hasFailed = true
    }

    /// The slice, with `lines` lines and reaching `bytesEnd` bytes into the file.
    mutating func finish(lines: Int, bytesEnd: Int) -> ParsedSlice {
        closeRun()
        slice.lines = lines
        slice.bytesEnd = bytesEnd
        return slice
    }

    private mutating func closeRun() {
        guard currentEntry >= 0 else { return }
        let start = slice.runs.last?.end ?? 0
        if slice.samples.count > start {
            slice.runs.append((currentEntry, slice.samples.count))
        }
    }
}
