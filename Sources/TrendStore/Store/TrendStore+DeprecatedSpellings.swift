import Foundation

/// The spellings of the previous release (weekday numbers, `forSeries:`), kept compiling
/// for one release.
extension TrendStore {
    /// The cached heatmap bucket of `series`.
    @available(*, deprecated, renamed: "cachedHeatmap(of:timeZone:)")
    public nonisolated func cachedHeatmap(
        forSeries series: some Collection<String>, timeZone: TimeZone? = nil
    ) throws -> Cached<HeatmapBucket>? {
        try cachedHeatmap(of: series, timeZone: timeZone)
    }

    /// Stores a heatmap bucket for `series`.
    @available(*, deprecated, renamed: "writeHeatmapCache(_:of:timeZone:)")
    public func writeHeatmapCache(
        _ bucket: HeatmapBucket, forSeries series: some Collection<String>,
        timeZone: TimeZone? = nil
    ) throws {
        try writeHeatmapCache(bucket, of: series, timeZone: timeZone)
    }

    /// The weekday average of weekday number `weekday` (1 = Sunday … 7).
    @available(*, deprecated, message: "pass a Weekday: weekdayAverage(of:weekday: .monday)")
    public nonisolated func weekdayAverage(
        of series: String, weekday: Int, now: Date? = nil,
        options: WeekdayAverageOptions = .init(), timeZone: TimeZone? = nil
    ) throws -> WeekdayAverage {
        try weekdayAverage(
            of: series, weekday: try Weekday(number: weekday), now: now, options: options,
            timeZone: timeZone)
    }

    /// The cached weekday average of weekday number `weekday` (1 = Sunday … 7).
    @available(*, deprecated, message: "pass a Weekday: cachedWeekdayAverage(of:weekday: .monday)")
    public nonisolated func cachedWeekdayAverage(
        of series: String, weekday: Int, now: Date? = nil, timeZone: TimeZone? = nil
    ) throws -> Cached<WeekdayAverage>? {
        try cachedWeekdayAverage(
            of: series, weekday: try Weekday(number: weekday), now: now, timeZone: timeZone)
    }

    /// The refreshed weekday average of weekday number `weekday` (1 = Sunday … 7).
    @available(
        *, deprecated, message: "pass a Weekday: refreshedWeekdayAverage(of:weekday: .monday)"
    )
    public func refreshedWeekdayAverage(
        of series: String, weekday: Int, now: Date? = nil, timeZone: TimeZone? = nil
    ) throws -> Cached<WeekdayAverage> {
        try refreshedWeekdayAverage(
            of: series, weekday: try Weekday(number: weekday), now: now, timeZone: timeZone)
    }
}

extension SchemaKey {
    /// The v2 weekday average key of weekday number `weekday` (1 = Sunday … 7).
    @available(*, deprecated, message: "pass a Weekday: weekdayAverage(_:weekday: .monday, zone:)")
    public static func weekdayAverage(_ series: String, weekday: Int, zone: TimeZone) -> String {
        "\(weekdayAveragePrefix(series))\(part(zone.identifier))/\(weekday)"
    }
}

extension Weekday {
    /// The weekday numbered `number` (1 = Sunday … 7 = Saturday).
    ///
    /// - Throws: ``StoreError/invalidArgument(_:)`` for any other number.
    init(number: Int) throws(StoreError) {
        guard let weekday = Weekday(rawValue: number) else {
            throw .invalidArgument(.weekday, reason: "\(number) is not 1 (Sunday) … 7 (Saturday)")
        }
        self = weekday
    }
}

extension WeekdayAverage {
    /// Creates an average of weekday number `weekday` (1 = Sunday … 7 = Saturday; other
    /// numbers go round the week, so 8 is Sunday and 0 Saturday).
    @available(*, deprecated, message: "pass a Weekday: WeekdayAverage(series:weekday: .monday, …)")
    public init(
        series: String, weekday: Int, days: [LocalDate], averageHourlyPattern: [Double]?,
        projectedTotal: Double?
    ) {
        self.init(
            series: series,
            weekday: Weekday(rawValue: (weekday % 7 + 6) % 7 + 1) ?? .sunday, days: days,
            averageHourlyPattern: averageHourlyPattern, projectedTotal: projectedTotal)
    }
}
