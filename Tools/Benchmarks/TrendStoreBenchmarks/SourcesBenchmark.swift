import Foundation
import TrendStore
import TrendStoreImport

/// Two sources of one series (`--suite sources`): a watch's minute stream with 20% of its
/// time off the wrist and a phone's 5–15-minute samples over the same days, written to one
/// series with a `source` column, beside the watch's stream alone as a single-source series
/// of another store (its figures the ones every other suite measures), and the two sources
/// stored as two separate series (for bytes per sample). Every figure is a median of the
/// runs in this process, with p99; ingest is the `trendstore` tool beside DuckDB loading the
/// same CSV, alternated.
enum SourcesBenchmark {
    static func run(
        directory: URL, days: Int, endDate: LocalDate, zone: TimeZone, iterations: Int,
        threads: Int, only: String?
    ) async throws -> String {
        var lines: [String] = []
        let first = endDate.adding(days: -(days - 1))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard
            let start = calendar.date(
                from: DateComponents(year: first.year, month: first.month, day: first.day)),
            let now = calendar.date(
                from: DateComponents(
                    year: endDate.year, month: endDate.month, day: endDate.day, hour: 13,
                    minute: 37, second: 12))
        else { throw BenchmarkError("no such date") }
        let data = TwoSources(
            from: start.millisecondsSince1970, to: now.millisecondsSince1970, seed: 51)
        let sourced = directory.appendingPathComponent("sources.csv").path
        let separate = directory.appendingPathComponent("separate.csv").path
        let watchOnly = directory.appendingPathComponent("watch.csv").path
        try data.write(to: sourced, form: .sources)
        try data.write(to: separate, form: .separateSeries)
        try data.write(to: watchOnly, form: .watchAlone)
        lines.append(
            "dataset: \(days) days to \(endDate) in \(zone.identifier), energy: watch \(data.watch.count) samples (20% off the wrist), phone \(data.phone.count); runs: watch \(data.watchRuns.count), Strava \(data.stravaRuns.count)"
        )
        lines += try ingest(sourced, directory: directory, zone: zone, threads: threads)

        var options = StoreOptions()
        options.timeZone = zone
        let two = try await store(sourced, at: directory.appendingPathComponent("two"), options)
        let one = try await store(watchOnly, at: directory.appendingPathComponent("one"), options)
        let apart = try await store(
            separate, at: directory.appendingPathComponent("apart"), options)
        let bytes = (
            two: Double(try two.footprint().sampleBytes),
            apart: Double(try apart.footprint().sampleBytes)
        )
        lines.append(
            String(
                format:
                    "sample pages: two sources in one series %.3f bytes a sample, as two series %.3f: %.3f× (target ≤ 1.1)",
                bytes.two / Double(data.count), bytes.apart / Double(data.count),
                bytes.two / bytes.apart))

        let day = Weekday(of: endDate)
        let year = (endDate.adding(days: -364), endDate)
        let figures: [(String, Double, (TrendStore, String) throws -> Void)] = [
            (
                "Q1 weekday average", 12,
                { _ = try $0.weekdayAverage(of: $1, weekday: day, now: now) }
            ),
            ("Q2 today's curve", 25, { _ = try $0.todayCurve(of: $1, now: now) }),
            (
                "Q3 one-year heatmap of runs", 60,
                { store, _ in _ = try store.heatmap(of: ["Run"], from: year.0, through: year.1) }
            ),
            (
                "Q3e one-year heatmap of the energy itself", 0,
                { _ = try $0.heatmap(of: [$1], from: year.0, through: year.1) }
            ),
            (
                "Q4 all seven, all time", 1_500,
                { _ = try $0.weekdayAverages(of: $1, now: now, options: .init(window: .allTime)) }
            ),
        ]
        lines.append(
            "figure (target µs)".padding(toLength: 44, withPad: " ", startingAt: 0)
                + "two sources (p99)        watch alone (p99)        ratio")
        for (label, target, query) in figures where only.map(label.hasPrefix) ?? true {
            let runs =
                label.hasPrefix("Q4") || label.hasPrefix("Q3e")
                ? max(20, iterations / 50) : iterations
            let merged = try BenchClock.time(runs) { try query(two, "activeEnergy") }
            let alone = try BenchClock.time(runs) { try query(one, "activeEnergy") }
            lines.append(
                (target > 0 ? "\(label) (≤ \(Int(target)))" : label).padding(
                    toLength: 44, withPad: " ", startingAt: 0)
                    + String(
                        format: "%8.1f (%8.1f)        %8.1f (%8.1f)        %.2f×", merged.median,
                        merged.p99, alone.median, alone.p99, merged.median / alone.median))
        }

        // One sample appended by the watch, committed alone, as a watch sends them.
        var next = now.millisecondsSince1970 + 60_000
        let commitRuns = max(50, iterations / 20)
        let mergedCommit = try await BenchClock.time(commitRuns) {
            try await two.write(
                [Sample(startMilliseconds: next, endMilliseconds: next + 60_000, value: 1.5)],
                to: "activeEnergy", unit: "kcal", source: TwoSources.watchName)
            next += 60_000
        }
        next = now.millisecondsSince1970 + 60_000
        let aloneCommit = try await BenchClock.time(commitRuns) {
            try await one.write(
                [Sample(startMilliseconds: next, endMilliseconds: next + 60_000, value: 1.5)],
                to: "activeEnergy", unit: "kcal")
            next += 60_000
        }
        lines.append(
            String(
                format:
                    "one-sample commit: two sources %.0f µs (p99 %.0f), watch alone %.0f µs (p99 %.0f): %.2f× (target ≤ 1.5)",
                mergedCommit.median, mergedCommit.p99, aloneCommit.median, aloneCommit.p99,
                mergedCommit.median / aloneCommit.median))

        var changes: [Double] = []
        for order in [[TwoSources.phoneName], [], [TwoSources.phoneName], []] {
            let began = BenchClock.now()
            try await two.setSourcePriority(order, for: "activeEnergy")
            changes.append(BenchClock.seconds(since: began))
        }
        lines.append(
            "priority change (rebuilds every row of the series): "
                + changes.map { String(format: "%.2f s", $0) }.joined(separator: ", ")
                + " (target ≤ 10 s on L)")
        guard try await two.verify().isHealthy else {
            throw BenchmarkError("the two-source store does not verify")
        }
        for store in [two, one, apart] { await store.close() }
        return lines.joined(separator: "\n")
    }

    /// A store holding `csv`, imported in-process.
    private static func store(_ csv: String, at url: URL, _ options: StoreOptions) async throws
        -> TrendStore
    {
        try? FileManager.default.removeItem(at: url)
        let store = try TrendStore(directory: url, options: options)
        _ = try await Importer(store: store).importFile(at: csv)
        return store
    }

    /// The `trendstore` tool importing `csv` beside DuckDB loading it, alternated, 3 runs each.
    private static func ingest(_ csv: String, directory: URL, zone: TimeZone, threads: Int)
        throws -> [String]
    {
        // The ingest beside DuckDB needs the release `trendstore` beside this tool.
        guard let tool = try? IngestBenchmark.commandLineTool() else {
            return ["ingest: skipped (build the release trendstore beside this tool)"]
        }
        let store = directory.appendingPathComponent("ingest-store").path
        let duckFile = directory.appendingPathComponent("sources.duckdb").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("duckdb_load.py").path
        var ours: [Double] = []
        var duck: [Double] = []
        var note: String?
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: store)
            let imported = try ChildProcess.run(
                tool,
                [
                    "import", csv, "--store", store, "--tz", zone.identifier, "--threads",
                    "\(threads)",
                ])
            guard imported.status == 0 else {
                throw BenchmarkError("import failed: \(imported.output)")
            }
            ours.append(imported.seconds)
            if note == nil {
                let loaded = try ChildProcess.run("python3", [script, csv, duckFile, "\(threads)"])
                if loaded.status == 0,
                    let seconds = IngestBenchmark.jsonNumber("seconds", in: loaded.output)
                {
                    duck.append(seconds)
                } else {
                    note = "DuckDB: skipped (needs python3 with duckdb: pip install duckdb)"
                }
            }
            try? FileManager.default.removeItem(atPath: duckFile)
        }
        try? FileManager.default.removeItem(atPath: store)
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        var lines = [
            String(format: "ingest of the two-source CSV: trendstore %.2f s", median(ours))
        ]
        if let note {
            lines.append(note)
        } else {
            lines[0] += String(
                format: ", DuckDB loading it %.2f s: %.2f× DuckDB's rate (target ≥ 1.0)",
                median(duck), median(duck) / median(ours))
        }
        return lines
    }
}

extension TrendStoreBenchmarks {
    /// The last date of every generated dataset.
    static let endDate = LocalDate("2026-11-21")!

    /// The `sources` suite's report, with this run's options.
    func sourcesReport(in directory: URL) async throws -> String {
        try await SourcesBenchmark.run(
            directory: directory, days: size.days, endDate: Self.endDate, zone: zone,
            iterations: iterations, threads: threads, only: only)
    }
}
