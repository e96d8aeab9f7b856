import ArgumentParser
import Foundation
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// Measures TrendStore on a generated dataset and answers the same queries with SQLite
/// (and DuckDB when available) in the same run, checking that the answers agree.
@main
struct TrendStoreBenchmarks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trendstore-benchmarks",
        abstract:
            "Benchmark TrendStore against SQLite and DuckDB on generated data (use a release build)."
    )

    enum Size: String, ExpressibleByArgument, CaseIterable {
        case s = "S", m = "M", l = "L", xl = "XL"
        var days: Int {
            switch self {
            case .s: 70
            case .m: 730
            case .l: 3650
            case .xl: 36_500  // about 50 million samples: run by hand, never in CI
            }
        }
    }

    @Option(
        help:
            "Dataset: S = 70 days, M = 2 years, L = 10 years, XL = 100 years (about 50 million samples) of minute data plus daily activities."
    )
    var size: Size = .s

    /// What to measure.
    enum Suite: String, ExpressibleByArgument, CaseIterable {
        case queries, writes, sizes, statistics, ingest, encryption, series, sources, sync
    }

    @Option(
        help:
            "queries: ingest and queries on the dataset beside SQLite and DuckDB; writes: single-sample write transactions beside SQLite, then the --profile's own samples committed one by one as they arrive; sizes: bytes per sample per value profile, then per data profile (every one, at --size) beside pcodec; statistics: interval statistics of heart rate and energy beside SQLite; ingest: the trendstore tool importing a 4-decimal CSV beside DuckDB loading it into a file, the reader alone, an Apple Health export (needs the release trendstore built beside this tool); encryption: an encrypted store beside a plain one of the same dataset; series: verify and info on stores of 25,000 to 100,000 one-sample series; sources: a watch's minutes and a phone's 5-15-minute samples in one series beside the watch alone (queries, bytes, ingest beside DuckDB, one-sample commits, a priority change); sync: the change feed from no anchor, its bytes per sample beside the store's, apply into an empty store, and changes(since:) after one new sample."
    )
    var suite: Suite = .queries

    @Option(
        help:
            "Timed runs of each TrendStore query (SQLite and DuckDB run a hundredth as many, at least 5)."
    )
    var iterations = 2_000

    @Option(help: "Run only the figures whose label starts with this (writes: a profile name).")
    var only: String?

    @Option(help: "Runs of each ingest figure.")
    var ingestRuns = 5

    @Option(
        help: "Threads the ingest suite's imports and DuckDB's loads use (default: every core).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(
        help:
            "The zone the datasets are generated in, the stores created in and the queries asked in (the K figures ask in Asia/Kathmandu whatever the store's zone)."
    )
    var zone = TimeZone(identifier: "America/Los_Angeles")!

    @Option(
        help:
            "The rollup grid of the queries suite's store: quarterHour or hour (default: the one its zone suits; hour in Los Angeles and Kathmandu)."
    )
    var rollupGrid: RollupGrid?

    @Option(
        help:
            "The data's shape for the queries, ingest, writes and statistics suites: generated, irregular, heartRate, sparse or random (drawn from --profile-seed)."
    )
    var profile: DataProfile = .generated

    @Option(help: "The seed the random profile's shape is drawn from (default: the clock's).")
    var profileSeed = UInt64(Date().timeIntervalSince1970)

    @Flag(help: "Skip the DuckDB peer.")
    var noDuckdb = false

    @Option(
        help:
            "A directory for the CSV and the stores (default: a new temporary one, removed afterwards)."
    )
    var workDirectory: String?

    func run() async throws {
        let directory = URL(
            fileURLWithPath: workDirectory ?? NSTemporaryDirectory()
                + "trendstore-benchmarks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if workDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
        var report = Report()
        switch suite {
        case .queries: break
        case .writes:
            if only.map({ !$0.hasPrefix(profile.rawValue) }) ?? true {
                try await WritePathBenchmark.run(
                    directory: directory, zone: zone, runs: iterations / 4, report: &report)
            }
            try await ProfileWrites.run(
                directory: directory, profile: profile, profileSeed: profileSeed,
                endDate: Self.endDate, zone: zone, runs: iterations / 4, report: &report)
            print(report.rendered())
            return
        case .sizes:
            print(try await SizeProfiles.run(directory: directory))
            print(
                try await ProfileSizes.run(
                    directory: directory, days: size.days, endDate: Self.endDate, zone: zone,
                    profileSeed: profileSeed))
            return
        case .series:
            try await ManySeriesBenchmark.run(
                directory: directory, runs: max(3, iterations / 400), report: &report)
            print(report.rendered())
            return
        case .ingest:
            print(
                try IngestBenchmark.run(
                    directory: directory,
                    settings: IngestBenchmark.Settings(
                        days: size.days, endDate: Self.endDate.description,
                        zone: zone.identifier, runs: ingestRuns, threads: threads,
                        profile: profile, profileSeed: profileSeed)))
            return
        case .encryption:
            print(
                try await EncryptionBenchmark.run(
                    directory: directory, days: size.days, endDate: Self.endDate, zone: zone,
                    iterations: iterations, only: only))
            return
        case .sources, .sync:
            return print(
                try await suite == .sync ? syncReport(in: directory) : sourcesReport(in: directory))
        case .statistics:
            try await StatisticsBenchmark.run(
                directory: directory, days: size.days, endDate: Self.endDate, zone: zone,
                iterations: iterations, profile: (profile, profileSeed),
                duckDBThreads: noDuckdb ? nil : threads, report: &report)
            print(report.rendered())
            try Self.check(report)
            return
        }

        let csv = try DatasetFile.write(
            "data-\(size.rawValue).csv", in: directory, days: size.days, endDate: Self.endDate,
            zone: zone, profile: profile, profileSeed: profileSeed)

        var options = StoreOptions()
        options.timeZone = zone
        options.rollupGrid = rollupGrid
        let storeURL = directory.appendingPathComponent("trendstore")
        try? FileManager.default.removeItem(at: storeURL)
        let store = try TrendStore(directory: storeURL, options: options)
        let summary = try await Importer(store: store).importFile(at: csv)
        let samples = summary.samplesRead
        let ingestRSS = BenchClock.peakResidentBytes()
        print(
            "dataset \(size.rawValue): \(size.days) days to \(Self.endDate) in \(zone.identifier), \(samples) samples, seed 7"
        )

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = calendar.date(
            from: DateComponents(
                year: 2026, month: 11, day: 21, hour: 13, minute: 37, second: 12,
                nanosecond: 345_000_000))!
        let nowMs = now.millisecondsSince1970
        let weekday = Self.endDate.weekday.rawValue
        let day = Weekday(of: Self.endDate)
        let series = "activeEnergy"
        let heatmapSeries = DatasetGenerator.Configuration(days: 1, endDate: Self.endDate)
            .activityTypes.sorted()
        let yearDates = (0..<365).map { Self.endDate.adding(days: -364 + $0) }

        let sqliteStart = BenchClock.now()
        let sqlite = try SQLitePeer(
            path: directory.appendingPathComponent("sqlite.db").path, csv: csv, zone: zone)
        let sqliteLoad = BenchClock.seconds(since: sqliteStart)
        report.add(
            "ingest, end to end (samples/s)", trendStore: summary.samplesPerSecond,
            sqliteSQL: Double(samples) / sqliteLoad, unit: .rate)
        report.add(
            "bytes on disk per sample", trendStore: Double(store.fileSize) / Double(samples),
            sqliteSQL: Double(sqlite.fileSize) / Double(samples), unit: .plain)
        print(
            String(
                format: "TrendStore ingest peak RSS %.1f MiB (before SQLite loaded the CSV)",
                Double(ingestRSS) / 1_048_576))
        print(PcodecPeer.report(csv: csv, store: store, samples: samples))
        print(
            String(
                format: "rollups (%@ grid, hours from :%02d): %.3f bytes per sample of LMDB pages",
                store.rollupGrid.rawValue, store.hourSummaryMinute,
                Double(try store.footprint().rollupBytes) / Double(samples)))

        let peerRuns = max(5, iterations / 100)
        func wanted(_ label: String) -> Bool { only.map(label.hasPrefix) ?? true }

        // Q1: the reference date's weekday.
        if wanted("Q1") {
            let dates = sqlite.candidates(weekday: weekday, now: now)
            let ours =
                try store.weekdayAverage(of: series, weekday: day, now: now)
                .averageHourlyPattern ?? []
            let sql = averagePattern(try sqlite.hourlySQL(series: series, dates: dates)) ?? []
            let rows = averagePattern(try sqlite.hourlyRows(series: series, dates: dates)) ?? []
            report.add(
                "Q1 weekday average (weekday \(weekday))",
                trendStore: try BenchClock.time(iterations) {
                    _ = try store.weekdayAverage(of: series, weekday: day, now: now)
                },
                sqliteSQL: try BenchClock.time(peerRuns) {
                    _ = try sqlite.hourlySQL(series: series, dates: dates)
                }.median,
                sqliteRows: try BenchClock.time(peerRuns) {
                    _ = try sqlite.hourlyRows(series: series, dates: dates)
                }.median,
                difference: max(Report.difference(ours, sql), Report.difference(ours, rows)),
                unit: .microseconds)
            report.add(
                "Q1 each weekday in turn",
                trendStore: try BenchClock.time(iterations) { index in
                    _ = try store.weekdayAverage(
                        of: series, weekday: Weekday.allCases[index % 7], now: now)
                },
                sqliteSQL: try BenchClock.time(peerRuns) { index in
                    _ = try sqlite.hourlySQL(
                        series: series, dates: sqlite.candidates(weekday: index % 7 + 1, now: now))
                }.median,
                unit: .microseconds)
        }
        // Q2: today's curve up to now.
        if wanted("Q2") {
            let today = [LocalDate(containing: now, in: zone)]
            let ours = try store.todayCurve(of: series, now: now)
            let dayStart = sqlite.buckets.hourStarts(today[0])[0]
            var sqlCurve = [Double]()
            var running = 0.0
            for value in try sqlite.hourlySQL(series: series, dates: today, until: nowMs)[0].hourly
            { running += value; sqlCurve.append(running) }
            let latest = try sqlite.latestEnd(series: series, dayStart: dayStart, now: nowMs)
            report.add(
                "Q2 today's curve",
                trendStore: try BenchClock.time(iterations * 5) {
                    _ = try store.todayCurve(of: series, now: now)
                },
                sqliteSQL: try BenchClock.time(peerRuns) {
                    _ = try sqlite.hourlySQL(series: series, dates: today, until: nowMs)
                    _ = try sqlite.latestEnd(series: series, dayStart: dayStart, now: nowMs)
                }.median,
                sqliteRows: try BenchClock.time(peerRuns) {
                    _ = try sqlite.hourlyRows(series: series, dates: today, until: nowMs)
                }.median,
                difference: max(
                    Report.difference(ours.cumulative, sqlCurve),
                    ours.latestSampleTimestamp.map(\.millisecondsSince1970) == latest ? 0 : 1),
                unit: .microseconds)
        }
        // Q3: a one-year heatmap of the five activity series, and a 20-year one.
        if wanted("Q3") {
            let ours = try store.heatmap(
                of: heatmapSeries, from: yearDates.first!, through: yearDates.last!)
            let sql = try sqlite.heatmapSQL(series: heatmapSeries, dates: yearDates)
            let rows = try sqlite.heatmapRows(series: heatmapSeries, dates: yearDates)
            var difference = 0.0
            for (index, name) in heatmapSeries.enumerated() {
                let mine = ours.days.map { $0.bySeries[name] ?? DayCount(count: 0, total: 0) }
                for (lhs, rhs) in Array(zip(mine, sql[index])) + Array(zip(mine, rows[index])) {
                    difference = max(
                        difference,
                        lhs.count == rhs.count ? Report.difference([lhs.total], [rhs.total]) : 1)
                }
            }
            report.add(
                "Q3 one-year heatmap, five activity series",
                trendStore: try BenchClock.time(iterations) {
                    _ = try store.heatmap(
                        of: heatmapSeries, from: yearDates.first!, through: yearDates.last!)
                },
                sqliteSQL: try BenchClock.time(peerRuns) {
                    _ = try sqlite.heatmapSQL(series: heatmapSeries, dates: yearDates)
                }.median,
                sqliteRows: try BenchClock.time(peerRuns) {
                    _ = try sqlite.heatmapRows(series: heatmapSeries, dates: yearDates)
                }.median,
                difference: difference, unit: .microseconds)
            let twentyYears = Self.endDate.adding(days: -(20 * 365 + 4))
            report.add(
                "Q3 20-year heatmap, five activity series",
                trendStore: try BenchClock.time(max(20, iterations / 20)) {
                    _ = try store.heatmap(
                        of: heatmapSeries, from: twentyYears, through: Self.endDate)
                }, unit: .microseconds)
        }
        // Q4: all seven weekday averages over all time.
        if wanted("Q4") {
            let first = LocalDate(
                containing: Date(milliseconds: try sqlite.firstStart(series: series)!),
                in: zone)
            let today = LocalDate(containing: now, in: zone)
            let dates = (first.dayNumber..<today.dayNumber).map(LocalDate.init(dayNumber:))
            let ours = try store.weekdayAverages(
                of: series, now: now, options: .init(window: .allTime)
            ).map { $0.averageHourlyPattern ?? [] }
            func split(_ days: [(hourly: [Double], hasData: Bool)]) -> [[Double]] {
                (1...7).map { weekday in
                    averagePattern(
                        zip(dates, days).filter { $0.0.weekday.rawValue == weekday }.map(\.1))
                        ?? []
                }
            }
            let sql = split(try sqlite.hourlySQL(series: series, dates: dates))
            let rows = split(try sqlite.hourlyRows(series: series, dates: dates))
            let runs = max(3, iterations / 500)
            report.add(
                "Q4 all seven weekday averages, all time",
                trendStore: try BenchClock.time(max(20, iterations / 50)) {
                    _ = try store.weekdayAverages(
                        of: series, now: now, options: .init(window: .allTime))
                },
                sqliteSQL: try BenchClock.time(runs) {
                    _ = try sqlite.hourlySQL(series: series, dates: dates)
                }.median,
                sqliteRows: try BenchClock.time(runs) {
                    _ = try sqlite.hourlyRows(series: series, dates: dates)
                }.median,
                difference: zip(ours, sql).map { Report.difference($0, $1) }.max()! + zip(
                    ours, rows
                ).map { Report.difference($0, $1) }.max()!,
                unit: .microseconds)
        }
        // Q1 and Q4 asked in Kathmandu, a quarter-hour off UTC, of a store created in another
        // zone: no local hour lines up with its hour summaries, so every hour is read from
        // rollup slots (quarter-hour grid) or raw samples (hour grid). A store created in
        // Kathmandu reads them from summaries: its figures are Q1–Q4 of `--zone
        // Asia/Kathmandu`. Checked against the same queries from raw samples.
        if wanted("K") {
            let kathmandu = TimeZone(identifier: "Asia/Kathmandu")!
            func averages(_ options: WeekdayAverageOptions) throws -> [[Double]] {
                try store.weekdayAverages(
                    of: series, now: now, options: options, timeZone: kathmandu
                )
                .map { $0.averageHourlyPattern ?? [] }
            }
            let recent = try averages(.init())
            let recentRaw = try averages(.init(fromRawSamples: true))
            report.add(
                "K1 weekday average in Asia/Kathmandu, each weekday in turn",
                trendStore: try BenchClock.time(iterations) { index in
                    _ = try store.weekdayAverage(
                        of: series, weekday: Weekday.allCases[index % 7], now: now,
                        timeZone: kathmandu)
                },
                difference: zip(recent, recentRaw).map { Report.difference($0, $1) }.max()!,
                unit: .microseconds)
            let allTime = WeekdayAverageOptions(window: .allTime)
            let all = try averages(allTime)
            let allRaw = try averages(.init(window: .allTime, fromRawSamples: true))
            report.add(
                "K4 all seven weekday averages in Asia/Kathmandu, all time",
                trendStore: try BenchClock.time(max(20, iterations / 50)) {
                    _ = try store.weekdayAverages(
                        of: series, now: now, options: allTime, timeZone: kathmandu)
                },
                difference: zip(all, allRaw).map { Report.difference($0, $1) }.max()!,
                unit: .microseconds)
        }
        if wanted("cached") {
            _ = try await store.refreshedWeekdayAverage(of: series, weekday: day, now: now)
            report.add(
                "cached weekday average, read and decoded",
                trendStore: try BenchClock.time(iterations * 5) {
                    _ = try store.cachedWeekdayAverage(of: series, weekday: day, now: now)
                },
                unit: .microseconds)
        }
        if wanted("raw") {
            let start = BenchClock.now()
            let scanned = try store.forEachBlock(of: series, from: .distantPast, to: .distantFuture)
            { _ in }
            report.add(
                "raw scan, decoding every block (samples/s)",
                trendStore: Double(scanned) / BenchClock.seconds(since: start), unit: .rate)
        }
        if !noDuckdb && only == nil {
            report.duckDB = DuckDBPeer.run(
                csv: csv, now: now, zone: zone, weekday: weekday, sqlite: sqlite, store: store,
                series: series, heatmapSeries: heatmapSeries, yearDates: yearDates, runs: peerRuns)
        }
        print(report.rendered())
        try Self.check(report)
    }
}
