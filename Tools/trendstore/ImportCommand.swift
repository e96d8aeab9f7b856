import ArgumentParser
import Foundation
import TrendStore
import TrendStoreImport

/// `trendstore import`: reads files into a store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import samples from CSV, NDJSON and export files into a store.")

    @Argument(help: "The files to import.")
    var files: [String]

    @OptionGroup var location: StoreLocation

    @Option(
        help: "The file format: \(ImportFormat.allCases.map(\.rawValue).joined(separator: "|")).")
    var format: ImportFormat = .auto

    @Flag(help: "Skip malformed records (counting them) instead of stopping at the first.")
    var skipInvalid = false

    @Option(help: "The unit of new series whose file names none.")
    var unit = ""

    @Option(
        help:
            "The kind of new series whose file names none: cumulative (values add up) or discrete (measurements).",
        transform: Arguments.kind)
    var kind: SeriesKind?

    @Option(
        help:
            "The source (device or app) of records that name none (default: the default source).",
        transform: Arguments.source)
    var source: String?

    @Option(help: "The series legacy energy cache files belong to.")
    var series = "activeEnergy"

    @Option(
        help: "The time zone of a new store (default: the system's).", transform: Arguments.zone)
    var tz: TimeZone?

    @Option(
        help:
            "The rollup grid of a new store: quarterHour (every zone's hours from rollups) or hour (smaller; its summaries in the store's zone's local hours, so zones whose hours begin at another minute read raw samples). Default: hour unless the store's zone has hours at two minutes of the UTC hour (Lord Howe Island).",
        transform: Arguments.grid)
    var rollupGrid: RollupGrid?

    @Option(help: "Samples per write transaction.")
    var batchSize = 250_000

    @Option(
        help:
            "Threads: one writes while the others parse (an Apple Health export parses on all of them; default: one per core; 1 reads, parses and writes in turn)."
    )
    var threads = ImportOptions().threads

    @Flag(help: "Print a line to standard output after each batch commits (for crash tests).")
    var reportCommits = false

    @Flag(
        help:
            "Commit each file in one transaction: a failure commits nothing (memory grows with the file)."
    )
    var atomic = false

    @Flag(help: "Read and check the files, writing nothing (reports errors and the reading rate).")
    var dryRun = false

    @Option(help: "The longest line or XML tag read, in bytes.")
    var maxRecordBytes = ImportOptions().maximumRecordBytes

    @Option(help: "The most bytes a zipped export may expand to.")
    var maxExpandedBytes = ExpansionLimits().maximumBytes

    @Option(help: "The most a zipped export may expand relative to its compressed size.")
    var maxExpansionRatio = ExpansionLimits().maximumRatio

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
        if batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
        if !(1...256).contains(threads) {
            throw ValidationError("--threads must be between 1 and 256")
        }
        if maxRecordBytes < 1 { throw ValidationError("--max-record-bytes must be at least 1") }
        if maxExpandedBytes < 1 || !(maxExpansionRatio >= 1) {
            throw ValidationError(
                "--max-expanded-bytes and --max-expansion-ratio must be at least 1")
        }
    }

    func run() async throws {
        if dryRun { return try await importFiles() }
        let isNewStore = !location.holdsStore
        do {
            try await importFiles()
        } catch {
            // A first import that committed nothing leaves no empty store behind; a store
            // another process has opened or written meanwhile stays.
            if isNewStore { _ = try? TrendStore.removeStoreIfEmpty(at: location.directory) }
            throw error
        }
    }

    /// The store imported into: the one named, or for a dry run, which must leave it
    /// untouched, a temporary store in `--tz` or else the named store's zone (where legacy
    /// cache keys name it).
    private func openStore() async throws -> (store: TrendStore, temporary: URL?) {
        guard dryRun else {
            return (try location.open(newStoreZone: tz, newStoreGrid: rollupGrid), nil)
        }
        var options = StoreOptions()
        options.timeZone = tz
        // Another process may be creating the named store: then it has no zone to read yet.
        if tz == nil, location.holdsStore, let named = try? location.open(readOnly: true) {
            options.timeZone = named.defaultTimeZone
            await named.close()
        }
        options.durability = .none
        // What a dry run of an encrypted store's import writes is sealed too, under a key
        // that ends with it.
        location.key.applyThrowaway(to: &options)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "trendstore-dry-run-\(UUID().uuidString)")
        return (try TrendStore(directory: temporary, options: options), temporary)
    }

    private func importFiles() async throws {
        try await reportingErrors {
            let (store, temporary) = try await openStore()
            var failure: (any Error)?
            do { try await importEach(into: store) } catch { failure = error }
            await store.close()
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
            if let failure { throw failure }
        }
    }

    /// Imports every file into `store`, printing each one's summary.
    private func importEach(into store: TrendStore) async throws {
        var options = ImportOptions()
        options.format = format
        options.skipInvalid = skipInvalid
        options.defaultUnit = unit
        options.defaultKind = kind
        options.defaultSource = source
        options.legacySeries = series
        options.batchSize = batchSize
        options.atomic = atomic
        options.threads = threads
        options.dryRun = dryRun
        options.maximumRecordBytes = maxRecordBytes
        options.expansionLimits.maximumBytes = maxExpandedBytes
        options.expansionLimits.maximumRatio = maxExpansionRatio
        if reportCommits {
            options.onCommit = { committed in
                // Written straight to the file descriptor: unbuffered, so a kill cannot lose a reported commit.
                FileHandle.standardOutput.write(Data("committed \(committed)\n".utf8))
            }
        }
        for file in files {
            let bar = ProgressBar(label: (file as NSString).lastPathComponent)
            let summary = try await Importer(store: store).importFile(
                at: file, options: options, progress: bar.update)
            bar.finish()
            print(ImportReport.text(summary))
        }
    }
}

extension ImportFormat: ExpressibleByArgument {}

/// The end-of-import summary, as text, each line ``Terminal/safe(_:)``.
enum ImportReport {
    static func text(_ summary: ImportSummary) -> String {
        var lines = [
            summary.format == .legacy
                ? "\(summary.file) (legacy cache file): \(summary.cachesWritten.count) cached aggregates written"
                : "\(summary.file) (\(summary.format.rawValue)): \(summary.recordsRead) records in "
                    + "\(String(format: "%.2f", summary.seconds)) s, \(Format.rate(summary.samplesPerSecond)) samples/s"
        ]
        for key in summary.cachesWritten { lines.append("  cache \(key)") }
        for (series, written) in summary.written.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "  \(series): \(written.inserted) new, \(written.replaced) replaced, \(written.unchanged) unchanged"
                    + (written.duplicates > 0
                        ? ", \(written.duplicates) repeated within the file (the last one kept)"
                        : "")
            )
        }
        for (series, order) in summary.priorityOrders.sorted(by: { $0.key < $1.key }) {
            let names = order.map { "\"\(SourceName.display($0))\"" }
            lines.append("  \(series): source priority \(names.joined(separator: ", "))")
        }
        for (reason, count) in summary.ignored.sorted(by: { $0.key < $1.key }) {
            lines.append("  ignored \(count): \(reason)")
        }
        for warning in summary.warnings { lines.append("  warning: \(warning)") }
        if summary.skipped > 0 {
            lines.append("  skipped \(summary.skipped) records, for example:")
            lines += summary.skippedExamples.map { "    \($0)" }
        }
        return lines.map(Terminal.safe).joined(separator: "\n")
    }
}
