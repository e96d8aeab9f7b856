import Foundation
import TrendStore

/// SVG drawings of a heatmap and of a weekday pattern with today's curve.
enum SVGCharts {
    private static let colors = ["#ebedf0", "#9be9a8", "#40c463", "#30a14e", "#216e39"]

    /// A contribution-graph calendar: one square per day, weeks as columns.
    static func heatmap(_ heatmap: Heatmap) -> String {
        guard let first = heatmap.days.first?.date else { return emptySVG }
        let peak = heatmap.days.map(\.total).max() ?? 0
        let leading = first.weekday.rawValue - 1
        let weeks = (leading + heatmap.days.count + 6) / 7
        let cell = 12
        var body = ""
        for (index, day) in heatmap.days.enumerated() {
            let slot = leading + index
            let level =
                day.count == 0 ? 0 : peak > 0 ? min(4, 1 + Int(day.total / peak * 3.999)) : 1
            body +=
                "<rect x=\"\(30 + slot / 7 * (cell + 2))\" y=\"\(20 + slot % 7 * (cell + 2))\" width=\"\(cell)\" height=\"\(cell)\" "
                + "rx=\"2\" fill=\"\(colors[level])\"><title>\(day.date): \(day.count), \(Format.number(day.total))</title></rect>\n"
        }
        let width = 40 + weeks * (cell + 2)
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"130\" font-family=\"sans-serif\" font-size=\"10\">\n"
            + "<text x=\"30\" y=\"12\">\(escape(heatmap.bucket)) \(first) … \(heatmap.days.last!.date)</text>\n"
            + zip(["S", "M", "T", "W", "T", "F", "S"], 0...).map {
                "<text x=\"14\" y=\"\(30 + $1 * (cell + 2))\">\($0)</text>"
            }.joined(separator: "\n")
            + "\n" + body + "</svg>\n"
    }

    /// The weekday pattern as a line, today's curve up to now over it, and a marker at now.
    static func weekdayChart(average: WeekdayAverage, today: DayCurve, now: Date, zone: TimeZone)
        -> String
    {
        let width = 720.0
        let height = 360.0
        let margin = 40.0
        let peak = max(average.averageHourlyPattern?.max() ?? 0, today.cumulative.max() ?? 0, 1)
        func x(_ hour: Double) -> Double { margin + hour / 24 * (width - 2 * margin) }
        func y(_ value: Double) -> Double { height - margin - value / peak * (height - 2 * margin) }
        func line(_ cumulative: [Double], upTo hours: Double) -> String {
            var points = [(0.0, 0.0)]
            for (hour, value) in cumulative.enumerated() where Double(hour + 1) <= hours {
                points.append((Double(hour + 1), value))
            }
            return points.map { String(format: "%.1f,%.1f", x($0.0), y($0.1)) }.joined(
                separator: " ")
        }
        let offset = Double(zone.secondsFromGMT(for: now))
        let hourNow =
            (now.timeIntervalSince1970 + offset).truncatingRemainder(dividingBy: 86_400) / 3600
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">\n"
        svg +=
            "<line x1=\"\(margin)\" y1=\"\(height - margin)\" x2=\"\(width - margin)\" y2=\"\(height - margin)\" stroke=\"#888\"/>\n"
        for hour in stride(from: 0, through: 24, by: 6) {
            svg +=
                "<text x=\"\(x(Double(hour)) - 8)\" y=\"\(height - margin + 16)\">\(String(format: "%02d:00", hour % 24))</text>\n"
        }
        if let pattern = average.averageHourlyPattern {
            svg +=
                "<polyline fill=\"none\" stroke=\"#999\" stroke-width=\"2\" stroke-dasharray=\"6 4\" points=\"\(line(pattern, upTo: 24))\"/>\n"
            svg +=
                "<text x=\"\(x(24) - 150)\" y=\"\(y(pattern[23]) - 6)\">average (\(average.dayCount) days) \(Format.number(pattern[23]))</text>\n"
        }
        svg +=
            "<polyline fill=\"none\" stroke=\"#e0457b\" stroke-width=\"3\" points=\"\(line(today.cumulative, upTo: hourNow.rounded(.up)))\"/>\n"
        svg +=
            "<line x1=\"\(x(hourNow))\" y1=\"\(margin)\" x2=\"\(x(hourNow))\" y2=\"\(height - margin)\" stroke=\"#e0457b\" stroke-dasharray=\"2 3\"/>\n"
        svg +=
            "<text x=\"\(x(hourNow) + 4)\" y=\"\(margin + 10)\">now: \(Format.number(today.total))"
            + (average.value(atHour: hourNow).map { " (average by now \(Format.number($0)))" } ?? "")
            + "</text>\n"
        svg +=
            "<text x=\"\(margin)\" y=\"20\">\(escape(today.series)) \(today.date)</text>\n</svg>\n"
        return svg
    }

    private static let emptySVG =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>\n"

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;")
    }
}
