/// Keys of the `aggregates` database. Each carries the schema version its payload was written with.
///
/// | key | payload |
/// |---|---|
/// | `v1/average/<series>` | one average pattern for all days (the old format, migrated away) |
/// | `v2/weekday-average/<series>/<W>` | the weekday average of weekday W (1 = Sunday … 7) |
/// | `v2/today/<series>` | today's curve, latest sample and move goal |
/// | `v2/heatmap/<bucket>` | a heatmap bucket: days of a set of series (bucket = names sorted, joined by `,`) |
public enum SchemaKey {
    /// The schema version new payloads are written with.
    public static let currentVersion = 2

    /// The v1 all-days average of `series`.
    public static func v1Average(_ series: String) -> String { "v1/average/\(series)" }
    /// The v2 weekday average of `series` for `weekday`.
    public static func weekdayAverage(_ series: String, weekday: Int) -> String {
        "v2/weekday-average/\(series)/\(weekday)"
    }
    /// The v2 today cache of `series`.
    public static func today(_ series: String) -> String { "v2/today/\(series)" }

    /// The v2 heatmap bucket of a set of series.
    public static func heatmap(_ series: some Sequence<String>) -> String {
        "v2/heatmap/\(Heatmap.bucketKey(for: series))"
    }

    static let heatmapPrefix = "v2/heatmap/"

    /// Every key a series' payloads can have (exact keys: series names may contain `/`).
    static func keys(of series: String) -> [String] {
        (1...7).map { weekdayAverage(series, weekday: $0) } + [today(series), v1Average(series)]
    }
}
