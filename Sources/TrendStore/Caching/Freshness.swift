import Foundation

/// The rules that decide whether a cached aggregate may be served as it is or must be
/// recomputed first.
public enum Freshness: Sendable {
    /// The age up to which `cache list` calls a heatmap bucket fresh (30 minutes);
    /// hosts judge buckets with their own `maxAge`.
    public static let heatmapListingMaximumAge: TimeInterval = 30 * 60

    /// How old a weekday average may get before it must be refreshed.
    public static let weekdayAverageMaximumAge: TimeInterval = 30 * 86_400

    /// Whether `0 ≤ now − computedAt ≤ maxAge`.
    public static func isFresh(computedAt: Date, maxAge: TimeInterval, now: Date) -> Bool {
        let age = now.timeIntervalSince(computedAt)
        return age >= 0 && age <= maxAge
    }

    /// Whether a today cache is stale: no latest sample, or one not on the local day of `now`.
    public static func isTodayStale(latestSampleTimestamp: Date?, now: Date, timeZone: TimeZone)
        -> Bool
    {
        guard let latest = latestSampleTimestamp else { return true }
        return LocalDate(containing: latest, in: timeZone)
            != LocalDate(containing: now, in: timeZone)
    }

    /// Whether the weekday-`weekday` average computed at `computedAt` must be refreshed at `now`.
    ///
    /// It must when it is older than 30 days (or from the future), or when `weekday` is
    /// today's weekday, the local time is in [06:00, 09:00), and it was computed before
    /// 06:00 today — the once-a-morning refresh. A missing or unreadable payload must
    /// always be refreshed; pass `nil` for it.
    public static func mustRefreshWeekdayAverage(
        computedAt: Date?, weekday: Weekday, now: Date, timeZone: TimeZone
    ) -> Bool {
        guard let computedAt else { return true }
        if !isFresh(computedAt: computedAt, maxAge: weekdayAverageMaximumAge, now: now) {
            return true
        }
        let today = LocalDate(containing: now, in: timeZone)
        guard Weekday(of: today) == weekday else { return false }
        let grid = LocalDayGrid(zone: timeZone, from: today, through: today)
        var spans: [HourSpan] = []
        grid.appendSpans(of: today, to: &spans)
        guard let six = spans.first(where: { $0.hour >= 6 })?.start,
            let nine = spans.first(where: { $0.hour >= 9 })?.start
        else { return false }
        let instant = now.millisecondsSince1970
        return instant >= six && instant < nine && computedAt.millisecondsSince1970 < six
    }
}
