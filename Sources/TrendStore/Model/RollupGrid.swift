/// The finest boundaries a store's rollups resolve, chosen when the store is created.
///
/// Queries read rollups for the parts of their ranges whose ends lie on the grid and
/// decode raw samples for the rest, so answers are the same either way; the grid trades
/// size against the speed of queries in zones other than the one the store was created
/// for, when that zone is a half or a quarter of an hour off UTC.
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
    /// A summary per hour, and the rows of each series' two newest days only (so samples
    /// written as they arrive update a row in place). The hours are the local hours of the
    /// zone the store was created in: UTC hours, or, in a zone a half or a quarter of an
    /// hour off UTC (India, Nepal, Newfoundland, South Australia), hours beginning that far
    /// past them. Local hours and days of every zone whose hours begin there are read from
    /// rollups, those of other zones from raw samples, and day heatmaps count raw samples.
    case hour

    /// Whether the store keeps a rollup row for every series and UTC day, so readers may sum
    /// its quarter-hour slots (the hour grid keeps the newest days' rows only, for writes).
    var keepsEveryRow: Bool { self == .quarterHour }
}
