/// The finest boundaries a store's rollups resolve, chosen when the store is created.
///
/// Queries read rollups for the parts of their ranges whose ends lie on the grid and
/// decode raw samples for the rest, so answers are the same either way; the grid trades
/// size against the speed of queries in zones a half or a quarter of an hour off UTC.
///
/// ```swift
/// var options = StoreOptions()
/// options.rollupGrid = .hour  // 0.3 bytes a sample of rollups instead of 1.0
/// let store = try TrendStore(directory: url, options: options)
/// ```
public enum RollupGrid: String, Sendable, Codable, CaseIterable {
    /// A row per series and UTC day with exact figures per quarter-hour, and a summary per
    /// UTC hour: every real zone's local hours and days are read from rollups.
    case quarterHour
    /// The summary per UTC hour, and the rows of each series' two newest days only (so
    /// samples written as they arrive update a row in place): local hours and days of
    /// whole-hour zones are read from rollups, those of zones off UTC by a half or a quarter
    /// of an hour (India, Nepal, Newfoundland, South Australia) from raw samples, and day
    /// heatmaps count raw samples.
    case hour

    /// Whether the store keeps a rollup row for every series and UTC day, so readers may sum
    /// its quarter-hour slots (the hour grid keeps the newest days' rows only, for writes).
    var keepsEveryRow: Bool { self == .quarterHour }

    /// The grid's step in milliseconds: every boundary it resolves is a multiple of it.
    var step: Int64 {
        switch self {
        case .quarterHour: TimeGrid.quarterHour
        case .hour: TimeGrid.hour
        }
    }
}
