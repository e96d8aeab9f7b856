/// The count and start sum of each series on each day of a heatmap's range, held once and
/// shared by the ``HeatmapDay`` values of a heatmap of several series, so a year of days costs
/// no allocation per day (a day of one series holds its figures itself).
final class HeatmapFigures: Sendable {
    /// The series, sorted.
    let series: [String]
    /// Per series (in the order of `series`), the count of each day.
    let counts: [[Int]]
    /// Per series, the start sum of each day.
    let sums: [[Double]]

    /// Figures of `series`: `counts` and `sums` hold one array per series, one element per day.
    init(series: [String], counts: [[Int]], sums: [[Double]]) {
        self.series = series
        self.counts = counts
        self.sums = sums
    }

    /// The figures of each series on day `day`.
    func figures(ofDay day: Int) -> [DayCount] {
        series.indices.map { DayCount(count: counts[$0][day], total: sums[$0][day]) }
    }
}
