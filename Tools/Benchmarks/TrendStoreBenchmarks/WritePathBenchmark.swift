import Foundation
import TrendStore

/// Writes as apps make them as samples arrive: one sample per transaction, appended after
/// the newest, in each durability mode. Into a week that already holds 600,000 samples and
/// into an empty one, with the bytes each commit writes; a 1 Hz stream for an hour against
/// the same samples in one batch; beside SQLite inserting one row per transaction into its
/// `WITHOUT ROWID` table in WAL mode with the matching `synchronous` (FULL, NORMAL, OFF).
enum WritePathBenchmark {
    /// The start of a UTC week (weeks counted from the epoch start on Thursdays).
    static let weekStart: Int64 = 2_900 * 7 * 86_400_000

    /// Runs the suite in stores created in `zone` (which sets their hour summaries' phase).
    static func run(directory: URL, zone: TimeZone, runs: Int, report: inout Report) async throws {
        var fullMedians: (trendStore: Double, sqlite: Double) = (0, 0)
        for mode in [Durability.full, .normal, .none] {
            let synchronous = ["full": "FULL", "normal": "NORMAL", "none": "OFF"][mode.rawValue]!
            let suffix = "\(mode.rawValue) | SQLite \(synchronous)"
            let store = try freshStore(
                "writes-\(mode.rawValue)", in: directory, durability: mode, zone: zone)
            var generator = Values(seed: 3)
            let full = (0..<600_000).map { index in
                Sample(
                    startMilliseconds: weekStart + Int64(index) * 1_000,
                    endMilliseconds: weekStart + Int64(index) * 1_000 + 1_000,
                    value: generator.fourDecimals())
            }
            for part in stride(from: 0, to: full.count, by: 100_000) {
                try await store.write(
                    Array(full[part..<(part + 100_000)]), to: "full", unit: "kcal")
            }
            let sqlite = try SQLiteAppends(
                path: directory.appendingPathComponent("writes-\(mode.rawValue).sqlite").path,
                synchronous: synchronous, preload: full.map { ("full", $0) })

            var next = weekStart + 600_000 * 1_000
            let bytesBefore = writtenBytes()
            let fullWeek = try await BenchClock.time(runs) {
                defer { next += 1_000 }
                try await store.write(
                    [Sample(startMilliseconds: next, endMilliseconds: next + 1_000, value: 0.25)],
                    to: "full", unit: "kcal")
            }
            let bytesPerCommit = Double(writtenBytes() - bytesBefore) / Double(runs + 1)
            var sqliteNext = next
            let sqliteMedian = try BenchClock.time(max(20, runs / 5)) {
                defer { sqliteNext += 1_000 }
                try sqlite.append(
                    Sample(
                        startMilliseconds: sqliteNext, endMilliseconds: sqliteNext + 1_000,
                        value: 0.25), to: "full")
            }.median
            report.add(
                "1-sample write, 600k-sample week, \(suffix)", trendStore: fullWeek,
                sqliteSQL: sqliteMedian, unit: .microseconds)
            switch mode {
            case .full: fullMedians = (fullWeek.median, sqliteMedian)
            case .normal:
                print(
                    String(
                        format:
                            "one-sync commit: TrendStore normal %.0f µs against SQLite FULL %.0f µs (target: at most); TrendStore full %.0f µs",
                        fullWeek.median, fullMedians.sqlite, fullMedians.trendStore))
            case .none: break
            }
            report.add(
                "  KiB written per commit, \(suffix)",
                trendStore: bytesPerCommit / 1024, unit: .plain)
            var emptyNext = weekStart + 7 * 86_400_000
            report.add(
                "1-sample write, empty week, \(suffix)",
                trendStore: try await BenchClock.time(runs) {
                    defer { emptyNext += 1_000 }
                    try await store.write(
                        [
                            Sample(
                                startMilliseconds: emptyNext, endMilliseconds: emptyNext + 1_000,
                                value: 0.25)
                        ], to: "sparse", unit: "kcal")
                }, unit: .microseconds)
        }
        try await streamAgainstBatch(directory: directory, zone: zone, report: &report)
        try await TodayCacheBenchmark.run(
            directory: directory, zone: zone, runs: runs, report: &report)
        try await HeatmapBucketsBenchmark.run(
            directory: directory, zone: zone, runs: runs, report: &report)
    }

    /// A 1 Hz stream of one-sample commits for an hour, and the same samples in one batch:
    /// the two stores' sizes, in new stores and in stores that already hold the week before.
    private static func streamAgainstBatch(
        directory: URL, zone: TimeZone, report: inout Report
    ) async throws {
        var generator = Values(seed: 4)
        let samples = (0..<603_600).map { index in
            Sample(
                startMilliseconds: weekStart + Int64(index) * 1_000,
                endMilliseconds: weekStart + Int64(index) * 1_000 + 1_000,
                value: generator.fourDecimals())
        }
        let hour = Array(samples.suffix(3_600))
        for before in [[], Array(samples.prefix(600_000))] {
            let label = before.isEmpty ? "1 Hz 1 h" : "1 Hz 1 h after 600k"
            let stream = try freshStore("stream", in: directory, durability: .none, zone: zone)
            let batch = try freshStore("batch", in: directory, durability: .none, zone: zone)
            for store in [stream, batch] {
                for part in stride(from: 0, to: before.count, by: 100_000) {
                    try await store.write(
                        Array(before[part..<min(part + 100_000, before.count)]), to: "hr",
                        unit: "count/min")
                }
            }
            for sample in hour { try await stream.write([sample], to: "hr", unit: "count/min") }
            try await batch.write(hour, to: "hr", unit: "count/min")
            let (streamPages, batchPages) = (try stream.footprint(), try batch.footprint())
            report.add(
                "\(label): file KiB, streamed | one batch",
                trendStore: Double(stream.fileSize) / 1024,
                sqliteSQL: Double(batch.fileSize) / 1024, unit: .plain)
            report.add(
                "\(label): data KiB, streamed | one batch",
                trendStore: Double(streamPages.sampleBytes + streamPages.rollupBytes) / 1024,
                sqliteSQL: Double(batchPages.sampleBytes + batchPages.rollupBytes) / 1024,
                unit: .plain)
        }
    }

    /// A new store in `directory/name`, replacing what was there unless `replacing` is
    /// `false` (then the store there, opened again), with `zone` as its zone.
    static func freshStore(
        _ name: String, in directory: URL, durability: Durability,
        zone: TimeZone = TimeZone(identifier: "UTC")!, replacing: Bool = true
    ) throws -> TrendStore {
        var options = StoreOptions()
        options.durability = durability
        options.timeZone = zone
        let url = directory.appendingPathComponent(name)
        if replacing { try? FileManager.default.removeItem(at: url) }
        return try TrendStore(directory: url, options: options)
    }

    /// The bytes this process has passed to `write` calls so far (`wchar` in `/proc/self/io`).
    static func writtenBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else {
            return 0
        }
        return text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    /// Energy-like values with four decimals.
    struct Values {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func fourDecimals() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double((state >> 33) % 16_384) / 10_000
        }
    }
}

/// SQLite doing what a Swift app does with it for the same writes: one `INSERT` per
/// transaction into a `WITHOUT ROWID` table, in WAL mode.
final class SQLiteAppends {
    private let database: SQLiteDatabase
    private let insert: SQLiteDatabase.Statement

    /// A new WAL database at `path` with `synchronous` set, holding `preload` (series, sample).
    init(path: String, synchronous: String, preload: [(String, Sample)]) throws {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            PRAGMA journal_mode=WAL; PRAGMA synchronous=\(synchronous);
            CREATE TABLE samples(series TEXT NOT NULL, start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL,
                                 value REAL NOT NULL, PRIMARY KEY (series, start_ms, end_ms)) WITHOUT ROWID;
            """)
        insert = try database.prepare("INSERT OR REPLACE INTO samples VALUES (?1, ?2, ?3, ?4)")
        try database.execute("BEGIN")
        for (series, sample) in preload { try put(sample, in: series) }
        try database.execute("COMMIT")
    }

    /// One sample, one transaction.
    func append(_ sample: Sample, to series: String) throws {
        try database.execute("BEGIN")
        try put(sample, in: series)
        try database.execute("COMMIT")
    }

    private func put(_ sample: Sample, in series: String) throws {
        insert.reset()
        insert.bind(1, series)
        insert.bind(2, sample.startMilliseconds)
        insert.bind(3, sample.endMilliseconds)
        insert.bind(4, sample.value)
        _ = try insert.step()
    }
}
