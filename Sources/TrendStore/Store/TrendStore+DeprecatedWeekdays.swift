import Foundation

/// The weekday-number spellings of the previous release, kept compiling for one release.
extension TrendStore {
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
