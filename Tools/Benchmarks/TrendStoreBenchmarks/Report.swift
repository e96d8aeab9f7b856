import Foundation

/// The comparison table: one row per figure, TrendStore beside its peers, with ratios and answer differences.
struct Report {
    enum Unit { case microseconds, rate, plain }

    struct Row {
        var label: String
        var trendStore: Double
        var trendStoreP99: Double?
        var sqliteSQL: Double?
        var sqliteRows: Double?
        var difference: Double?
        var unit: Unit
    }

    var rows: [Row] = []
    var duckDB: String?

    mutating func add(
        _ label: String, trendStore: Double, sqliteSQL: Double? = nil, sqliteRows: Double? = nil,
        difference: Double? = nil, unit: Unit
    ) {
        rows.append(
            Row(
                label: label, trendStore: trendStore, sqliteSQL: sqliteSQL, sqliteRows: sqliteRows,
                difference: difference, unit: unit))
    }

    /// Adds a timed figure: TrendStore's median and p99 beside the peers' medians.
    mutating func add(
        _ label: String, trendStore: BenchClock.Timing, sqliteSQL: Double? = nil,
        sqliteRows: Double? = nil, difference: Double? = nil, unit: Unit
    ) {
        rows.append(
            Row(
                label: label, trendStore: trendStore.median, trendStoreP99: trendStore.p99,
                sqliteSQL: sqliteSQL,
                sqliteRows: sqliteRows, difference: difference, unit: unit))
    }

    /// The largest difference between two lists, relative to the larger magnitude (1 when their lengths differ).
    static func difference(_ lhs: [Double], _ rhs: [Double]) -> Double {
        guard lhs.count == rhs.count else { return 1 }
        return zip(lhs, rhs).map { abs($0 - $1) / max(abs($0), abs($1), 1e-12) }.max() ?? 0
    }

    func rendered() -> String {
        func value(_ number: Double?, _ unit: Unit) -> String {
            guard let number else { return "-" }
            switch unit {
            case .microseconds:
                return number >= 1000
                    ? String(format: "%.2f ms", number / 1000) : String(format: "%.1f µs", number)
            case .rate: return String(format: "%.2f M/s", number / 1e6)
            case .plain: return String(format: "%.2f", number)
            }
        }
        func ratio(_ peer: Double?, _ ours: Double, _ unit: Unit) -> String {
            guard let peer, ours > 0, peer > 0 else { return "" }
            let factor = unit == .rate ? ours / peer : peer / ours
            return String(format: "%.1f×", factor)
        }
        // Wide enough for every label: a cut label loses the mode it names.
        let labelWidth = max(44, (rows.map(\.label.count).max() ?? 0) + 1)
        var lines = [
            "figure".padding(toLength: labelWidth, withPad: " ", startingAt: 0)
                + "TrendStore     p99            SQLite SQL      ×       SQLite rows     ×       answers differ by"
        ]
        for row in rows {
            var line = row.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            line += value(row.trendStore, row.unit).padding(
                toLength: 15, withPad: " ", startingAt: 0)
            line += (row.trendStoreP99.map { value($0, row.unit) } ?? "").padding(
                toLength: 15, withPad: " ", startingAt: 0)
            line += value(row.sqliteSQL, row.unit).padding(
                toLength: 16, withPad: " ", startingAt: 0)
            line += ratio(row.sqliteSQL, row.trendStore, row.unit).padding(
                toLength: 8, withPad: " ", startingAt: 0)
            line += value(row.sqliteRows, row.unit).padding(
                toLength: 16, withPad: " ", startingAt: 0)
            line += ratio(row.sqliteRows, row.trendStore, row.unit).padding(
                toLength: 8, withPad: " ", startingAt: 0)
            line += row.difference.map { String(format: "%.1e", $0) } ?? ""
            lines.append(line)
        }
        lines.append(
            "× = how many times TrendStore is faster (smaller, for bytes); peers' figures are medians; differences are relative."
        )
        if let duckDB { lines.append(duckDB) }
        return lines.joined(separator: "\n")
    }
}
