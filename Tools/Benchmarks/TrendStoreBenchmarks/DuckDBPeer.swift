import Foundation
import TrendStore

/// Runs `duckdb_peer.py` with the same buckets and compares its answers, or says why it was skipped.
enum DuckDBPeer {
    static func run(
        csv: String, now: Date, zone: TimeZone, weekday: Int, sqlite: SQLitePeer, store: TrendStore, series: String,
        heatmapSeries: [String], yearDates: [LocalDate], runs: Int
    ) -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("duckdb_peer.py").path
        guard FileManager.default.fileExists(atPath: script) else { return "DuckDB: skipped (no \(script))" }
        do {
            let dates = sqlite.candidates(weekday: weekday, now: now)
            let spans = sqlite.buckets.spans(dates).map { [$0.day, $0.hour, Int($0.start), Int($0.end)] }
            let days = yearDates.enumerated().map { index, date in
                let starts = sqlite.buckets.hourStarts(date)
                return [index, Int(starts[0]), Int(starts[24])]
            }
            let maximumDuration = try store.samples(of: series, from: .distantPast, to: .distantFuture)
                .map(\.durationMilliseconds).max() ?? 0
            let spec: [String: Any] = [
                "csv": csv, "series": series, "maximumDuration": maximumDuration, "spans": spans, "days": days,
                "heatmapSeries": heatmapSeries, "runs": runs,
            ]
            let specPath = NSTemporaryDirectory() + "duckdb-spec-\(UUID().uuidString).json"
            try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
            defer { try? FileManager.default.removeItem(atPath: specPath) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")  // the python3 on PATH, where pip installs
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
                return text.contains("No module named 'duckdb'") || text.contains("No such file")
                    ? "DuckDB: skipped (needs python3 with duckdb: pip install duckdb)"
                    : "DuckDB: failed: \(text.suffix(300))"
            }
            let ours = try store.weekdayAverage(of: series, weekday: weekday, now: now)
            let theirs = (result["q1_pattern"] as? [Double]) ?? []
            let q1 = (result["q1_us"] as? Double) ?? 0
            let q3 = (result["q3_us"] as? Double) ?? 0
            let heatmap = try store.heatmap(of: heatmapSeries, from: yearDates.first!, through: yearDates.last!)
            let cells = (result["q3"] as? [String: [Double]]) ?? [:]
            var heatmapDifference = 0.0
            for (index, day) in heatmap.days.enumerated() {
                for name in heatmapSeries {
                    let mine = day.bySeries[name] ?? DayCount(count: 0, total: 0)
                    let cell = cells["\(index)/\(name)"] ?? [0, 0]
                    heatmapDifference = max(heatmapDifference, Double(mine.count) == cell[0] ? Report.difference([mine.total], [cell[1]]) : 1)
                }
            }
            return String(
                format: "DuckDB (in Python): load %.2f M samples/s; Q1 %.1f µs (%.0f× TrendStore's), answers differ by %.1e; Q3 %.1f µs, answers differ by %.1e",
                Double((result["rows"] as? Int) ?? 0) / ((result["load_seconds"] as? Double) ?? 1) / 1e6, q1,
                q1 / max(1e-3, (try BenchClock.time(200) { _ = try store.weekdayAverage(of: series, weekday: weekday, now: now) }).median),
                Report.difference(ours.averageHourlyPattern ?? [], theirs), q3, heatmapDifference)
        } catch {
            return "DuckDB: failed: \(error)"
        }
    }
}
