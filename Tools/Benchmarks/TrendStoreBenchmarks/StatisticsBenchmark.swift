import Foundation
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// Interval statistics on the generator's data with heart rate (discrete: a reading every
/// 5 s during activities, every 5 min otherwise) and active energy (cumulative), beside
/// SQLite answering the same buckets in SQL (a table of bucket bounds joined to samples,
/// grouped), answers compared.
enum StatisticsBenchmark {
    static func run(
        directory: URL, days: Int, endDate: LocalDate, zone: TimeZone, iterations: Int,
        profile: (DataProfile, seed: UInt64), duckDBThreads: Int?, report: inout Report
    ) async throws {
        let csv = try DatasetFile.write(
            "statistics-\(days).csv", in: directory, days: days, endDate: endDate, zone: zone,
            heartRate: true, profile: profile.0, profileSeed: profile.seed)
        var options = StoreOptions()
        options.timeZone = zone
        let store = try TrendStore(
            directory: directory.appendingPathComponent("statistics-store"), options: options)
        let summary = try await Importer(store: store).importFile(at: csv)
        let sqlite = try SQLitePeer(
            path: directory.appendingPathComponent("statistics.sqlite").path, csv: csv, zone: zone)
        print(
            "statistics dataset: \(days) days, \(summary.samplesRead) samples "
                + "(heartRate \(summary.written["heartRate"]?.inserted ?? 0))")

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func midnight(_ date: LocalDate) -> Date {
            calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        }
        let end = midnight(endDate)
        let yearAgo = midnight(endDate.adding(days: -365))
        let weekAgo = midnight(endDate.adding(days: -7))
        let first = midnight(endDate.adding(days: -days + 1))
        let firstMonth = midnight(
            LocalDate(year: endDate.adding(days: -days + 1).year, month: 1, day: 1)!)
        let peerRuns = max(3, iterations / 100)
        let cases:
            [(
                label: String, series: String, from: Date, to: Date, interval: StatisticsInterval,
                anchor: Date?, options: StatisticsOptions
            )] = [
                (
                    "S1 heartRate, one year of daily avg/min/max", "heartRate", yearAgo, end,
                    .days(1), nil, [.average, .minimum, .maximum, .count]
                ),
                (
                    "S2 heartRate, one week of hourly statistics", "heartRate", weekAgo, end,
                    .hours(1), nil, [.sum, .average, .minimum, .maximum, .count]
                ),
                (
                    "S3 heartRate, ten years of monthly statistics", "heartRate", firstMonth,
                    end, .months(1), nil, [.average, .minimum, .maximum, .count]
                ),
                (
                    "S4 heartRate, one day aligned (24h from midnight)", "heartRate",
                    midnight(endDate.adding(days: -1)), end, .hours(24), nil,
                    [.average, .minimum, .maximum, .count]
                ),
                (
                    "S5 heartRate, one day unaligned (24h from 00:07:30)", "heartRate",
                    midnight(endDate.adding(days: -1)).addingTimeInterval(450),
                    end.addingTimeInterval(450), .hours(24),
                    midnight(endDate.adding(days: -1)).addingTimeInterval(450),
                    [.average, .minimum, .maximum, .count]
                ),
                (
                    "S6 activeEnergy, one year of daily sums", "activeEnergy", yearAgo, end,
                    .days(1), nil, [.sum, .count]
                ),
                (
                    "S7 activeEnergy, one week of hourly sums", "activeEnergy", weekAgo, end,
                    .hours(1), nil, [.sum, .count]
                ),
                (
                    "S8 activeEnergy, ten years of monthly sums", "activeEnergy", first, end,
                    .months(1), nil, [.sum, .count]
                ),
            ]
        var peerCases: [[String: Any]] = []
        var answers: [IntervalStatistics] = []
        for query in cases {
            let answer = try store.statistics(
                of: query.series, from: query.from, to: query.to, interval: query.interval,
                anchor: query.anchor, timeZone: zone, options: query.options)
            let bounds = answer.buckets.map {
                ($0.start.millisecondsSince1970, $0.end.millisecondsSince1970)
            }
            let discrete = answer.kind == .discrete
            let peer = try sqlite.statistics(
                series: query.series, buckets: bounds, discrete: discrete)
            let timing = try BenchClock.time(iterations) {
                _ = try store.statistics(
                    of: query.series, from: query.from, to: query.to,
                    interval: query.interval, anchor: query.anchor, timeZone: zone,
                    options: query.options)
            }
            report.add(
                query.label + " (\(answer.buckets.count) buckets)",
                trendStore: timing,
                sqliteSQL: try BenchClock.time(peerRuns) {
                    _ = try sqlite.statistics(
                        series: query.series, buckets: bounds, discrete: discrete)
                }.median,
                difference: difference(answer, peer), unit: .microseconds)
            answers.append(answer)
            peerCases.append([
                "label": String(query.label.prefix(2)), "series": query.series,
                "discrete": discrete, "buckets": bounds.map { [$0.0, $0.1] },
                "longest": try sqlite.longestDuration(series: query.series),
                "ours": timing.median,
            ])
        }
        if let duckDBThreads {
            report.duckDB = duckDB(
                csv: csv, database: directory.appendingPathComponent("statistics.duckdb").path,
                threads: duckDBThreads, cases: peerCases, answers: answers, runs: peerRuns)
        }
    }

    /// A peer's figures of each bucket, in bucket order.
    typealias PeerBuckets = [(
        count: Int, sum: Double, average: Double?, minimum: Double?, maximum: Double?
    )]

    /// The largest relative difference between TrendStore's buckets and a peer's over the
    /// figures asked for (1 when the bucket counts differ).
    static func difference(_ answer: IntervalStatistics, _ peer: PeerBuckets) -> Double {
        guard answer.buckets.count == peer.count else { return 1 }
        let discrete = answer.kind == .discrete
        var difference = 0.0
        for (bucket, expected) in zip(answer.buckets, peer) {
            let ours = [
                Double(bucket.count ?? 0), bucket.sum ?? 0, bucket.average ?? 0,
                bucket.minimum ?? 0, bucket.maximum ?? 0,
            ]
            var theirs = [
                Double(expected.count), expected.sum, expected.average ?? 0,
                expected.minimum ?? 0, expected.maximum ?? 0,
            ]
            if !answer.options.contains(.sum) { theirs[1] = 0 }
            if !discrete { theirs[2...4] = [0, 0, 0] }
            difference = max(difference, Report.difference(ours, theirs))
        }
        return difference
    }

    /// Runs `duckdb_statistics.py` on the same CSV and buckets: the report's DuckDB line,
    /// each case's median beside TrendStore's and how far the answers differ.
    private static func duckDB(
        csv: String, database: String, threads: Int, cases: [[String: Any]],
        answers: [IntervalStatistics], runs: Int
    ) -> String {
        let spec: [String: Any] = [
            "csv": csv, "database": database, "threads": threads, "runs": runs, "cases": cases,
        ]
        defer { try? FileManager.default.removeItem(atPath: database) }
        let result: [String: Any]
        switch DuckDBPeer.runScript("duckdb_statistics.py", spec: spec) {
        case .success(let answer): result = answer
        case .failure(let failure): return failure.description
        }
        let theirs = (result["cases"] as? [[String: Any]]) ?? []
        guard theirs.count == cases.count else { return "DuckDB: failed: \(theirs.count) answers" }
        var parts: [String] = []
        for ((spec, answer), peer) in zip(zip(cases, answers), theirs) {
            let rows = ((peer["answers"] as? [[Any]]) ?? []).map { row in
                (
                    count: (row[0] as? Int) ?? 0, sum: (row[1] as? Double) ?? 0,
                    average: row[2] as? Double, minimum: row[3] as? Double,
                    maximum: row[4] as? Double
                )
            }
            let microseconds = (peer["us"] as? Double) ?? 0
            let ours = (spec["ours"] as? Double) ?? 1
            parts.append(
                String(
                    format: "%@ %.1f µs (%.0f× TrendStore's time), differ by %.1e",
                    (spec["label"] as? String) ?? "?", microseconds, microseconds / ours,
                    difference(answer, rows)))
        }
        return String(
            format:
                "DuckDB (Python client, a database file, %d threads, medians incl. call overhead): "
                + "load %.2f M samples/s; ",
            threads,
            Double((result["rows"] as? Int) ?? 0) / ((result["load_seconds"] as? Double) ?? 1)
                / 1e6) + parts.joined(separator: "; ")
    }
}

extension SQLitePeer {
    /// The figures of each bucket `[start, end)` in SQL: for a discrete series the members
    /// (samples starting in it); for a cumulative one the prorated sum of the samples
    /// overlapping it and the count of those starting in it.
    func statistics(series: String, buckets: [(Int64, Int64)], discrete: Bool) throws
        -> StatisticsBenchmark.PeerBuckets
    {
        try database.execute(
            "CREATE TEMP TABLE IF NOT EXISTS bounds(k INTEGER PRIMARY KEY, b_start INTEGER, b_end INTEGER); DELETE FROM temp.bounds"
        )
        let insert = try database.prepare("INSERT INTO temp.bounds VALUES (?1, ?2, ?3)")
        for (index, bucket) in buckets.enumerated() {
            insert.reset()
            insert.bind(1, Int64(index))
            insert.bind(2, bucket.0)
            insert.bind(3, bucket.1)
            _ = try insert.step()
        }
        let longest = try longestDuration(series: series)
        let sql =
            discrete
            ? """
            SELECT k, count(value), sum(value), avg(value), min(value), max(value) FROM temp.bounds
            LEFT JOIN samples ON series = ?1 AND start_ms >= b_start AND start_ms < b_end
            GROUP BY k ORDER BY k
            """
            : """
            SELECT k, sum(start_ms >= b_start), sum(CASE WHEN end_ms = start_ms THEN value
                ELSE value * (min(end_ms, b_end) - max(start_ms, b_start)) / (end_ms - start_ms) END),
                NULL, NULL, NULL FROM temp.bounds
            LEFT JOIN samples ON series = ?1 AND start_ms >= b_start - ?2 AND start_ms < b_end
                AND (end_ms > b_start OR (end_ms = start_ms AND start_ms >= b_start))
            GROUP BY k ORDER BY k
            """
        let query = try database.prepare(sql)
        query.bind(1, series)
        if !discrete { query.bind(2, longest) }
        var result: [(Int, Double, Double?, Double?, Double?)] = []
        while try query.step() {
            result.append(
                (
                    Int(query.int(1)), query.isNull(2) ? 0 : query.double(2),
                    query.isNull(3) ? nil : query.double(3),
                    query.isNull(4) ? nil : query.double(4),
                    query.isNull(5) ? nil : query.double(5)
                ))
        }
        return result
    }

    /// The longest duration of `series`' samples, so overlap searches can start early enough.
    func longestDuration(series: String) throws -> Int64 {
        let query = try database.prepare(
            "SELECT coalesce(max(end_ms - start_ms), 0) FROM samples WHERE series = ?1")
        query.bind(1, series)
        _ = try query.step()
        return query.int(0)
    }
}
