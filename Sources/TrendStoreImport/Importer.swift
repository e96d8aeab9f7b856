import Foundation
import TrendStore

/// How an import runs.
public struct ImportOptions: Sendable {
    /// The file format; `.auto` tells it from the content.
    public var format: ImportFormat = .auto
    /// Skip malformed records, counting them, instead of stopping at the first.
    public var skipInvalid = false
    /// Samples per write transaction.
    public var batchSize = 250_000
    /// Write the whole file in one transaction, so a failure anywhere commits nothing.
    ///
    /// Memory then grows with the file (every sample is held until the end); without it,
    /// a failure leaves the earlier batches committed, which is safe because importing
    /// the same file again changes nothing.
    public var atomic = false
    /// The unit of a new series when the file does not name one.
    public var defaultUnit = ""
    /// The kind of a new series when the file does not name one (`nil`: cumulative).
    public var defaultKind: SeriesKind?
    /// The source of records that name none (`nil`: the default source).
    public var defaultSource: String?
    /// The series the legacy energy cache files belong to.
    public var legacySeries = "activeEnergy"
    /// The longest record (a CSV or NDJSON line, an XML tag) read, in bytes; a longer one
    /// is an error naming its line. Default 1 MiB.
    public var maximumRecordBytes = 1 << 20
    /// How far a zipped export may expand before it is refused as a possible zip bomb.
    public var expansionLimits = ExpansionLimits()
    /// Threads the import runs on: one writes while the others read and parse (CSV
    /// parses on all of them, an Apple Health export on as many beside the writer, whose
    /// share of its work is small; other formats on one). Default: every core. With 1 the
    /// import reads, parses and writes in turn; the store is the same either way. Parsing
    /// threads beyond what 32 MiB of the file's longest pieces hold are not started (each
    /// holds its piece), so memory stays bounded whatever this says.
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Read and check the file, writing nothing: every error an import would report, and
    /// the reading rate alone.
    public var dryRun = false
    /// The bytes of CSV, or of an Apple Health export, parsed as one piece (tests make it
    /// small to cut records at every place).
    var sliceBytes = 1 << 20
    /// Called after each batch commits, with how many samples have been committed so far.
    public var onCommit: (@Sendable (Int) -> Void)?

    /// The defaults: detect the format, stop at the first bad record, 250,000 samples a batch.
    public init() {}
}

/// How far an import has got, for a progress display.
public struct ImportProgress: Sendable {
    /// Bytes of the file read so far.
    public var bytesDone: Int
    /// The file's size in bytes.
    public var bytesTotal: Int
    /// Samples read so far.
    public var samples: Int
    /// Seconds since the import began.
    public var elapsed: Double
}

/// What an import did.
public struct ImportSummary: Sendable, Codable {
    /// The file imported.
    public var file: String
    /// The format it was read as.
    public var format: ImportFormat
    /// Records read, valid or not.
    public var recordsRead = 0
    /// What the writes changed, per series.
    public var written: [String: WriteSummary] = [:]
    /// Records skipped as malformed (with `skipInvalid`) or by a format's rules.
    public var skipped = 0
    /// The first few skipped records, as `file:line: field: reason`.
    public var skippedExamples: [String] = []
    /// Well-formed records left out by the format's rules (types not imported), by reason.
    public var ignored: [String: Int] = [:]
    /// What the import read past without an error, as `file:line: what`: a CSV header's
    /// columns the importer does not know, whose values it leaves out.
    public var warnings: [String] = []
    /// The priority orders the file's `priority` ranks give each series (its ranked
    /// sources, rank 1 first), set when every record was written (a dry run sets none).
    public var priorityOrders: [String: [String]] = [:]
    /// The cache keys a legacy cache file was imported into.
    public var cachesWritten: [String] = []
    /// Samples in committed batches.
    public var committedSamples = 0
    /// Wall-clock seconds taken.
    public var seconds = 0.0
    /// The file's size in bytes.
    public var bytes = 0

    /// Samples read per second.
    public var samplesPerSecond: Double { seconds > 0 ? Double(samplesRead) / seconds : 0 }

    /// Records that became samples.
    public var samplesRead: Int { recordsRead - skipped - ignored.values.reduce(0, +) }
}

/// Imports files into a store in batches: each batch is one transaction, so a failure
/// leaves every earlier batch committed and nothing of the failing one.
///
/// ```swift
/// let summary = try await Importer(store: store).importFile(at: "export.csv")
/// print(summary.written["activeEnergy"]?.inserted ?? 0)
/// ```
public struct Importer: Sendable {
    /// The store written to.
    public let store: TrendStore

    /// Creates an importer writing to `store`.
    public init(store: TrendStore) { self.store = store }

    /// Imports one file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - options: Format, batch size, what to do with malformed records.
    ///   - progress: Called now and then with how far the import has got.
    /// - Throws: ``ImportError`` naming the file, line and field of the first malformed
    ///   record (unless `skipInvalid`), or of a file that cannot be read.
    public func importFile(
        at path: String, options: ImportOptions = ImportOptions(),
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary {
        let began = Date()
        let stream = try ByteStream(path: path)
        stream.maximumRecordBytes = options.maximumRecordBytes
        let format = options.format == .auto ? try FormatDetector.detect(stream) : options.format
        if format == .legacy {
            var summary = ImportSummary(file: path, format: format)
            summary.bytes = stream.totalBytes
            summary.cachesWritten = try await importLegacy(
                path: path, stream: stream, series: options.legacySeries, dryRun: options.dryRun)
            summary.recordsRead = summary.cachesWritten.count
            summary.seconds = Date().timeIntervalSince(began)
            return summary
        }
        var summary = ImportSummary(file: path, format: format)
        summary.bytes = stream.totalBytes
        if format == .csv {
            let source = try SampleCSVParser(
                stream: stream, skipInvalid: options.skipInvalid, sliceBytes: options.sliceBytes)
            summary.warnings += source.unknownColumns.map {
                "\(path):1: column \"\($0)\" is not one the importer reads; its values were left out"
            }
            try await read(
                source, workers: options.threads - 1, into: &summary, options: options,
                began: began, progress: progress)
        } else if format == .appleHealth {
            try await readAppleHealth(
                path: path, stream: stream, into: &summary, options: options, began: began,
                progress: progress)
        } else {
            let parser = try makeParser(format, path: path, stream: stream, options: options)
            let source = RecordParserBlocks(
                parser: parser, file: path, skipInvalid: options.skipInvalid)
            try await read(
                source, workers: min(1, options.threads - 1), into: &summary, options: options,
                began: began, progress: progress)
            if let ndjson = parser as? NDJSONParser {
                summary.warnings += ndjson.unknownFields.map {
                    "\(path):\($0.line): field \"\($0.name)\" is not one the importer reads; its values were left out"
                }
            }
        }
        if !options.dryRun { try await setPriorityOrders(of: summary) }
        if summary.recordsRead == 0 && stream.totalBytes > 0 {
            throw ImportError(
                file: path,
                reason:
                    "holds no records: is it a \(format.rawValue) file? (line endings LF, CRLF and CR are all read)"
            )
        }
        summary.seconds = Date().timeIntervalSince(began)
        progress?(
            ImportProgress(
                bytesDone: stream.totalBytes, bytesTotal: stream.totalBytes,
                samples: summary.samplesRead, elapsed: summary.seconds))
        return summary
    }

    /// Reads every slice of `source`, parsed on `workers` threads beside this one, writing
    /// a batch each `batchSize` samples (one at the end when the import is atomic).
    func read<Source: SliceSource>(
        _ source: Source, workers: Int, into summary: inout ImportSummary,
        options: ImportOptions, began: Date, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws {
        let pipeline = SlicePipeline(source: source, workers: max(0, workers))
        defer { pipeline.stop() }
        do {
            try await consume(
                pipeline, linesBefore: source.linesBefore, into: &summary, options: options,
                began: began, progress: progress)
        } catch var error as ImportError {
            error.committedSamples = summary.committedSamples
            throw error
        }
    }

    /// Writes the slices of `pipeline` in batches of `batchSize` samples.
    private func consume<Source: SliceSource>(
        _ pipeline: SlicePipeline<Source>, linesBefore: Int, into summary: inout ImportSummary,
        options: ImportOptions, began: Date, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws {
        let batchSize = options.atomic ? Int.max : max(1, options.batchSize)
        var batch = PendingBatch()
        var named = SeriesDeclarations(file: summary.file, defaultSource: options.defaultSource)
        var lines = linesBefore
        var lastReport = Date()
        while let slice = await pipeline.next() {
            summary.recordsRead += slice.records
            summary.skipped += slice.skipped
            for example in slice.skippedExamples
            where summary.skippedExamples.count < ParsedSlice.skippedExampleLimit {
                summary.skippedExamples.append(example.movingLine(by: lines).description)
            }
            summary.ignored.merge(slice.ignored, uniquingKeysWith: +)
            var start = 0
            for run in slice.runs {
                let entry = slice.entries[run.entry]
                try named.check(entry, line: lines + entry.line)
                var rest = slice.samples[start..<run.end]
                start = run.end
                if options.dryRun { continue }
                while !rest.isEmpty {
                    let part = rest.prefix(batchSize - batch.count)
                    batch.add(
                        part, series: entry.series, unit: entry.unit, kind: entry.kind,
                        source: entry.source)
                    rest = rest.dropFirst(part.count)
                    if batch.count >= batchSize {
                        try await write(&batch, summary: &summary, options: options)
                    }
                }
            }
            if let failure = slice.failure { throw failure.movingLine(by: lines) }
            lines += slice.lines
            if let progress, Date().timeIntervalSince(lastReport) > 0.2 {
                lastReport = Date()
                progress(
                    ImportProgress(
                        bytesDone: slice.bytesEnd, bytesTotal: pipeline.totalBytes,
                        samples: summary.samplesRead, elapsed: lastReport.timeIntervalSince(began)))
            }
        }
        try await write(&batch, summary: &summary, options: options)
        summary.priorityOrders = named.orders
    }

    /// Reads a legacy cache file into the store's caches; returns the keys written (for a
    /// dry run, which writes nothing, the keys it would write).
    private func importLegacy(path: String, stream: ByteStream, series: String, dryRun: Bool)
        async throws -> [String]
    {
        var data = Data()
        while try stream.consume({ bytes, _ in
            data.append(contentsOf: bytes); return bytes.count
        }) {}
        let content: LegacyCacheFile.Content
        do {
            content = try LegacyCacheFile.read(data, zone: store.timeZone)
        } catch {
            throw ImportError(
                file: path, field: error.field.isEmpty ? nil : error.field, reason: error.reason)
        }
        if dryRun { return keys(of: content, series: series) }
        try await write(content, series: series)
        return keys(of: content, series: series)
    }

    /// Writes a legacy file's `content` into the caches of `series`.
    private func write(_ content: LegacyCacheFile.Content, series: String) async throws {
        switch content {
        case let .v1Average(pattern, total, cachedAt):
            try await store.importV1Average(
                of: series, pattern: pattern, projectedTotal: total, computedAt: cachedAt)
        case let .v2Averages(entries):
            for entry in entries {
                try await store.importWeekdayAverage(
                    of: series, weekday: entry.weekday, pattern: entry.pattern,
                    projectedTotal: entry.projectedTotal, computedAt: entry.cachedAt)
            }
        case let .today(cumulative, date, latest, goal):
            let snapshot = TodaySnapshot(
                curve: DayCurve(
                    series: series, date: date, cumulative: cumulative,
                    latestSampleTimestamp: latest), moveGoal: goal)
            try await store.importToday(snapshot, computedAt: latest ?? Date())
        case let .heatmapBuckets(buckets):
            try await store.importHeatmapBuckets(buckets)
        }
    }

    /// The cache keys a legacy file's `content` is written under.
    private func keys(of content: LegacyCacheFile.Content, series: String) -> [String] {
        switch content {
        case .v1Average:
            return Weekday.allCases.map {
                SchemaKey.weekdayAverage(series, weekday: $0, zone: store.defaultTimeZone)
            }
        case let .v2Averages(entries):
            return entries.map {
                SchemaKey.weekdayAverage(series, weekday: $0.weekday, zone: store.timeZone)
            }
        case .today:
            return [SchemaKey.today(series, zone: store.timeZone)]
        case let .heatmapBuckets(buckets):
            return buckets.map { SchemaKey.heatmap($0.series, zone: store.timeZone) }
        }
    }

    /// The streaming parser of a format other than the importer's CSV and legacy caches.
    private func makeParser(
        _ format: ImportFormat, path: String, stream: ByteStream, options: ImportOptions
    ) throws(ImportError) -> any RecordParser {
        switch format {
        case .ndjson: return NDJSONParser(stream: stream)
        case .stravaCSV: return try StravaCSVParser(stream: stream)
        case .stravaJSON: return try StravaJSONParser(stream: stream)
        case .auto, .csv, .legacy, .appleHealth:
            // CSV, legacy files and Apple Health exports are handled by importFile itself.
            throw ImportError(
                file: stream.path, reason: "the \(format.rawValue) format is not supported yet")
        }
    }

    private func write(
        _ batch: inout PendingBatch, summary: inout ImportSummary, options: ImportOptions
    ) async throws {
        guard batch.count > 0 else { return }
        // A series whose file names no unit keeps its stored unit, or gets the default when
        // new: resolved by the write's own transaction, not read beforehand.
        let parts = batch.series.sorted(by: {
            ($0.name, $0.source ?? "") < ($1.name, $1.source ?? "")
        })
        .map { pending in
            SeriesSamples(
                series: pending.name, unit: pending.unit ?? options.defaultUnit,
                kind: pending.kind ?? options.defaultKind, samples: pending.samples,
                unitIsDefault: pending.unit == nil,
                source: pending.source ?? options.defaultSource)
        }
        do {
            for (series, result) in try await store.write(parts) {
                summary.written[series, default: WriteSummary()] += result
            }
            summary.committedSamples += batch.count
            options.onCommit?(summary.committedSamples)
        } catch let error as StoreError {
            throw ImportError(file: summary.file, reason: "\(error)", cause: error)
        }
        batch = PendingBatch()
    }
}

/// Samples read but not yet written, grouped by series and source.
struct PendingBatch {
    private(set) var series:
        [(name: String, source: String?, unit: String?, kind: SeriesKind?, samples: [Sample])] = []
    private var indexOfSeries: [[String?]: Int] = [:]
    private var lastIndex = -1
    private(set) var count = 0

    mutating func add(
        _ samples: ArraySlice<Sample>, series name: String, unit: String?, kind: SeriesKind?,
        source: String?
    ) {
        // Files mostly hold long runs of one series: check the last one before hashing.
        if lastIndex < 0 || series[lastIndex].name != name || series[lastIndex].source != source {
            if let index = indexOfSeries[[name, source]] {
                lastIndex = index
            } else {
                lastIndex = series.count
                indexOfSeries[[name, source]] = lastIndex
                series.append((name, source, unit, kind, []))
            }
        }
        series[lastIndex].samples.append(contentsOf: samples)
        if series[lastIndex].unit == nil { series[lastIndex].unit = unit }
        if series[lastIndex].kind == nil { series[lastIndex].kind = kind }
        count += samples.count
    }
}
