import Foundation
import TrendStore

/// Runs `duckdb_peer.py` with the same buckets and compares its answers, or says why it was skipped.
enum DuckDBPeer {
    static func run(
        csv: String, now: Date, zone: TimeZone, weekday: Int, sqlite: SQLitePeer, store: TrendStore,
        series: String,
        heatmapSeries: [String], yearDates: [LocalDate], runs: Int
    ) -> String {
        do {
            let dates = sqlite.candidates(weekday: weekday, now: now)
            let spans = sqlite.buckets.spans(dates).map {
                [$0.day, $0.hour, Int($0.start), Int($0.end)]
            }
            let days = yearDates.enumerated().map { index, date in
                let starts = sqlite.buckets.hourStarts(date)
                return [index, Int(starts[0]), Int(starts[24])]
            }
            let maximumDuration =
                try store.samples(of: series, from: .distantPast, to: .distantFuture)
                .map(\.durationMilliseconds).max() ?? 0
            let nowMs = now.millisecondsSince1970
            let today = LocalDate(containing: now, in: zone)
            let todaySpans = sqlite.buckets.spans([today], until: nowMs).map {
                [$0.day, $0.hour, Int($0.start), Int($0.end)]
            }
            let first = LocalDate(
                containing: Date(milliseconds: try sqlite.firstStart(series: series)!), in: zone)
            let allDates = (first.dayNumber..<today.dayNumber).map(LocalDate.init(dayNumber:))
            let allSpans = sqlite.buckets.spans(allDates).map {
                [$0.day, $0.hour, Int($0.start), Int($0.end)]
            }
            let spec: [String: Any] = [
                "csv": csv, "series": series, "maximumDuration": maximumDuration, "spans": spans,
                "days": days,
                "heatmapSeries": heatmapSeries, "runs": runs, "todaySpans": todaySpans,
                "dayStart": Int(sqlite.buckets.hourStarts(today)[0]), "now": Int(nowMs),
                "allSpans": allSpans,
                "allWeekdays": allDates.map(\.weekday.rawValue),
            ]
            let result: [String: Any]
            switch runScript("duckdb_peer.py", spec: spec) {
            case .success(let answer): result = answer
            case .failure(let failure): return failure.description
            }
            let ours = try store.weekdayAverage(
                of: series, weekday: Weekday(of: LocalDate(containing: now, in: zone)), now: now)
            let theirs = (result["q1_pattern"] as? [Double]) ?? []
            let q1 = (result["q1_us"] as? Double) ?? 0
            let q3 = (result["q3_us"] as? Double) ?? 0
            let heatmap = try store.heatmap(
                of: heatmapSeries, from: yearDates.first!, through: yearDates.last!)
            let cells = (result["q3"] as? [String: [Double]]) ?? [:]
            var heatmapDifference = 0.0
            for (index, day) in heatmap.days.enumerated() {
                for name in heatmapSeries {
                    let mine = day.bySeries[name] ?? DayCount(count: 0, total: 0)
                    let cell = cells["\(index)/\(name)"] ?? [0, 0]
                    heatmapDifference = max(
                        heatmapDifference,
                        Double(mine.count) == cell[0]
                            ? Report.difference([mine.total], [cell[1]]) : 1)
                }
            }
            let todayCurve = try store.todayCurve(of: series, now: now)
            let q2Difference = max(
                Report.difference(todayCurve.cumulative, (result["q2_curve"] as? [Double]) ?? []),
                todayCurve.latestSampleTimestamp.map(\.millisecondsSince1970)
                    == (result["q2_latest"] as? Int).map(Int64.init) ? 0 : 1)
            let allTime = try store.weekdayAverages(
                of: series, now: now, options: .init(window: .allTime)
            ).map { $0.averageHourlyPattern ?? [] }
            let theirAllTime = (result["q4_patterns"] as? [Any]) ?? []
            let q4Difference =
                zip(allTime, theirAllTime).map { Report.difference($0, ($1 as? [Double]) ?? []) }
                .max() ?? 1
            return String(
                format:
                    "DuckDB (Python client, medians incl. call overhead): load %.2f M samples/s; Q1 %.1f µs, differ by %.1e; "
                    + "Q2 %.1f µs, differ by %.1e; Q3 %.1f µs, differ by %.1e; Q4 %.1f µs, differ by %.1e",
                Double((result["rows"] as? Int) ?? 0) / ((result["load_seconds"] as? Double) ?? 1)
                    / 1e6,
                q1, Report.difference(ours.averageHourlyPattern ?? [], theirs),
                (result["q2_us"] as? Double) ?? 0, q2Difference,
                q3, heatmapDifference, (result["q4_us"] as? Double) ?? 0, q4Difference)
        } catch {
            return "DuckDB: failed: \(error)"
        }
    }

    /// Why a peer script gave no answer: the line the report prints instead.
    struct ScriptFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the Python script `name` (beside this tool's sources) with `spec` written to a
    /// JSON file, and returns the JSON object it prints.
    static func runScript(_ name: String, spec: [String: Any]) -> Result<
        [String: Any], ScriptFailure
    > {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: script) else {
            return .failure(ScriptFailure(description: "DuckDB: skipped (no \(script))"))
        }
        do {
            let specPath = NSTemporaryDirectory() + "duckdb-spec-\(UUID().uuidString).json"
            try JSONSerialization.data(withJSONObject: spec).write(
                to: URL(fileURLWithPath: specPath))
            defer { try? FileManager.default.removeItem(atPath: specPath) }
            let process = Process()
            // the python3 on PATH, where pip installs
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, specPath]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                let result = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                let text = String(decoding: data, as: UTF8.self)
                return .failure(
                    ScriptFailure(
                        description: text.contains("No module named 'duckdb'")
                            || text.contains("No such file")
                            ? "DuckDB: skipped (needs python3 with duckdb: pip install duckdb)"
                            : "DuckDB: failed: \(text.suffix(300))"))
            }
            return .success(result)
        } catch {
            return .failure(ScriptFailure(description: "DuckDB: failed: \(error)"))
        }
    }
}
