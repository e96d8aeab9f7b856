import TrendStore

/// Draws a heatmap in the terminal like a contribution graph: weeks as columns,
/// weekdays as rows, shaded by each day's total relative to the busiest day.
enum HeatmapGrid {
    static let shades: [Character] = ["·", "░", "▒", "▓", "█"]

    static func render(_ heatmap: Heatmap) -> String {
        guard let first = heatmap.days.first?.date else { return "" }
        let peak = heatmap.days.map(\.total).max() ?? 0
        let leading = first.weekday.rawValue - 1  // columns start on Sunday
        let weeks = (leading + heatmap.days.count + 6) / 7
        var grid = Array(repeating: Array(repeating: Character(" "), count: weeks), count: 7)
        for (index, day) in heatmap.days.enumerated() {
            let slot = leading + index
            grid[slot % 7][slot / 7] = shade(day, peak: peak)
        }
        let labels = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        var lines = zip(labels, grid).map { "\($0) \(String($1))" }
        lines.append(
            "    \(shades.map(String.init).joined()) less → more (by total); \(first) … \(heatmap.days.last!.date)"
        )
        return lines.joined(separator: "\n")
    }

    private static func shade(_ day: HeatmapDay, peak: Double) -> Character {
        guard day.count > 0 else { return shades[0] }
        guard peak > 0 else { return shades[1] }
        return shades[min(4, 1 + Int(day.total / peak * 3.999))]
    }
}
