import Foundation
import TrendStoreGenerator

/// Bulk import as a user runs it: the `trendstore` command-line tool importing a generated
/// CSV (4-decimal energy, epoch milliseconds) into a new store, beside DuckDB loading the
/// same file into a new database file, in alternating runs; the reader alone (`import
/// --dry-run` on one thread); and an Apple Health `export.xml`.
enum IngestBenchmark {
    struct Settings {
        var days: Int
        var endDate: String
        var zone: String
        var runs: Int
        var threads: Int
        var profile: DataProfile
        var profileSeed: UInt64
    }

    static func run(directory: URL, settings: Settings) throws -> String {
        let tool = try commandLineTool()
        var lines: [String] = []
        let csv = directory.appendingPathComponent("ingest.csv").path
        let generated = try ChildProcess.run(
            tool,
            [
                "generate", "--days", "\(settings.days)", "--end", settings.endDate, "--tz",
                settings.zone, "--profile", settings.profile.rawValue, "--out", csv,
            ]
                + (settings.profile == .random
                    ? ["--seed", "\(settings.profileSeed)"] : ["--seed", "7", "--decimals", "4"]))
        try check(generated, "generate")
        let csvBytes = try fileSize(csv)
        let samples = Int(generated.output.split(separator: " ").dropFirst().first ?? "") ?? 0
        lines.append(
            String(
                format:
                    "dataset: %d days, %d samples, %.0f MB of CSV, profile %@, generated in %.1f s",
                settings.days, samples, Double(csvBytes) / 1e6, settings.profile.rawValue,
                generated.seconds))

        // The same samples without the unit column: DuckDB parses `unit` as text, a quarter
        // of its load, so each tool loads each file shape, the same file each time.
        let fourColumns = directory.appendingPathComponent("ingest-4.csv").path
        try writeWithoutLastColumn(csv, to: fourColumns)
        let store = directory.appendingPathComponent("ingest-store").path
        var peakRSS = 0.0
        for (shape, file) in [
            ("5 columns (series,start,end,value,unit)", csv),
            ("4 columns (series,start,end,value)", fourColumns),
        ] {
            let loads = try compareLoads(
                of: file, samples: samples, store: store, directory: directory, settings: settings,
                tool: tool)
            lines.append(shape + ":")
            lines += loads.lines
            peakRSS = max(peakRSS, loads.peakRSS)
        }
        try? FileManager.default.removeItem(atPath: fourColumns)

        var dryRuns: [Double] = []
        for _ in 0..<settings.runs {
            let read = try ChildProcess.run(
                tool, ["import", csv, "--store", store, "--dry-run", "--threads", "1"])
            try check(read, "import --dry-run")
            dryRuns.append(Double(samples) / read.seconds)
        }
        try? FileManager.default.removeItem(atPath: csv)

        let xml = directory.appendingPathComponent("export.xml").path
        try check(
            try ChildProcess.run(
                tool,
                [
                    "generate", "--days", "\(min(settings.days, 730))", "--end", settings.endDate,
                    "--tz", settings.zone, "--seed", "7", "--out", xml,
                ]), "generate (XML)")
        let xmlBytes = try fileSize(xml)
        var xmlRates: [Double] = []
        for _ in 0..<max(1, settings.runs / 2) {
            try? FileManager.default.removeItem(atPath: store)
            let imported = try ChildProcess.run(
                tool, ["import", xml, "--store", store, "--threads", "\(settings.threads)"])
            try check(imported, "import (XML)")
            xmlRates.append(Double(xmlBytes) / imported.seconds)
        }
        try? FileManager.default.removeItem(atPath: store)
        try? FileManager.default.removeItem(atPath: xml)

        lines.append(
            row(
                "reader alone, 1 thread (samples/s per core)",
                median: BenchClock.Timing(dryRuns).median,
                worst: dryRuns.min() ?? 0, rate: true))
        lines.append(
            String(
                format: "import peak RSS: %.1f MiB (largest of the runs; target ≤ 150 MiB)",
                peakRSS / 1_048_576))
        lines.append(
            String(
                format:
                    "Apple Health export.xml (%.0f MB, %d days): %.1f MB/s median, %.1f slowest (target ≥ 150)",
                Double(xmlBytes) / 1e6, min(settings.days, 730),
                BenchClock.Timing(xmlRates).median / 1e6,
                (xmlRates.min() ?? 0) / 1e6))
        return lines.joined(separator: "\n")
    }

    /// `trendstore import` of `csv` into a new store beside DuckDB loading it into a new file,
    /// alternated `settings.runs` times: the report's rows, and the import's largest peak RSS.
    private static func compareLoads(
        of csv: String, samples: Int, store: String, directory: URL, settings: Settings,
        tool: String
    ) throws -> (lines: [String], peakRSS: Double) {
        var ours: [Double] = []
        var oursRSS: [Double] = []
        var duck: [Double] = []
        var duckCreating: [Double] = []
        var duckNote: String?
        let duckFile = directory.appendingPathComponent("ingest.duckdb").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("duckdb_load.py").path
        for _ in 0..<settings.runs {
            try? FileManager.default.removeItem(atPath: store)
            let imported = try ChildProcess.run(
                tool, ["import", csv, "--store", store, "--threads", "\(settings.threads)"])
            try check(imported, "import")
            ours.append(Double(samples) / imported.seconds)
            oursRSS.append(Double(imported.peakResidentBytes))
            if duckNote == nil {
                let loaded = try ChildProcess.run(
                    "python3", [script, csv, duckFile, "\(settings.threads)"])
                if loaded.status == 0, let seconds = jsonNumber("seconds", in: loaded.output) {
                    duck.append(Double(samples) / seconds)
                    if let creating = jsonNumber("creating_seconds", in: loaded.output) {
                        duckCreating.append(Double(samples) / creating)
                    }
                } else {
                    duckNote = "DuckDB: skipped (needs python3 with duckdb: pip install duckdb)"
                }
            }
            try? FileManager.default.removeItem(atPath: duckFile)
        }
        try? FileManager.default.removeItem(atPath: store)
        var lines = ["figure (median of \(settings.runs) runs, and the slowest run)"]
        let oursTiming = BenchClock.Timing(ours)
        lines.append(
            row(
                "import, CLI, \(settings.threads) threads (samples/s)", median: oursTiming.median,
                worst: ours.min() ?? 0, rate: true))
        if let duckNote {
            lines.append(duckNote)
            return (lines, oursRSS.max() ?? 0)
        }
        let duckTiming = BenchClock.Timing(duck)
        lines.append(
            row(
                "DuckDB load into a file, \(settings.threads) threads", median: duckTiming.median,
                worst: duck.min() ?? 0, rate: true))
        lines.append(
            String(
                format: "ratio TrendStore / DuckDB: %.2f× (medians)",
                oursTiming.median / duckTiming.median))
        if !duckCreating.isEmpty {
            // Ours is timed from the process's start, its store's creation included;
            // DuckDB's load alone leaves out the creation of its file.
            let creating = BenchClock.Timing(duckCreating)
            lines.append(
                row(
                    "DuckDB creating its file, then loading", median: creating.median,
                    worst: duckCreating.min() ?? 0, rate: true))
            lines.append(
                String(
                    format:
                        "ratio TrendStore / DuckDB creating its file: %.2f× (TrendStore's figure includes its process's start and its store's creation)",
                    oursTiming.median / creating.median))
        }
        return (lines, oursRSS.max() ?? 0)
    }

    /// Copies the CSV at `path` to `target` without each line's last column, 4 MiB at a time:
    /// the harness stays small, since a child it starts reports the harness's peak RSS as its
    /// own when that is larger (the child shares the harness's memory until it execs).
    private static func writeWithoutLastColumn(_ path: String, to target: String) throws {
        guard let input = FileHandle(forReadingAtPath: path),
            FileManager.default.createFile(atPath: target, contents: nil),
            let output = FileHandle(forWritingAtPath: target)
        else { throw BenchmarkError("cannot copy \(path) to \(target)") }
        defer {
            try? input.close()
            try? output.close()
        }
        var line: [UInt8] = []
        var lastComma: Int?
        var out: [UInt8] = []
        while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty {
            for byte in chunk {
                if byte == UInt8(ascii: "\n") {
                    out += line[..<(lastComma ?? line.count)]
                    out.append(byte)
                    line.removeAll(keepingCapacity: true)
                    lastComma = nil
                } else {
                    if byte == UInt8(ascii: ",") { lastComma = line.count }
                    line.append(byte)
                }
            }
            try output.write(contentsOf: out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// The `trendstore` tool built beside this benchmark.
    static func commandLineTool() throws -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("trendstore").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchmarkError(
                "\(path) is missing: build it first (swift build -c release --product trendstore)")
        }
        return path
    }

    private static func check(_ outcome: ChildProcess.Outcome, _ what: String) throws {
        guard outcome.status == 0 else {
            throw BenchmarkError("\(what) failed with status \(outcome.status): \(outcome.output)")
        }
    }

    private static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    static func jsonNumber(_ key: String, in text: String) -> Double? {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return (object[key] as? NSNumber)?.doubleValue
    }

    private static func row(_ label: String, median: Double, worst: Double, rate: Bool) -> String {
        label.padding(toLength: 52, withPad: " ", startingAt: 0)
            + String(format: "%.2f M/s   slowest %.2f M/s", median / 1e6, worst / 1e6)
    }
}
