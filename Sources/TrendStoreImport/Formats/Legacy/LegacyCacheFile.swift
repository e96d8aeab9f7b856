import Foundation
import TrendStore

/// The Health Trends app's cache files, read into the store's caches.
///
/// Shapes, as the Health Trends app writes them: `average-data-cache.json` (v1: one pattern for all days),
/// `average-data-cache-v2.json` (`weekdayData` keyed "1"…"7"), and `energy-data.json`
/// (today). Dates are ISO-8601 strings or numbers of seconds since 2001-01-01 (Swift's
/// default). In a pattern, a point's `hour` is the end of the hour it closes: local
/// midnight with 0, then one point per hour; points not on the hour ("now" markers)
/// are ignored. Points map to hours by their wall-clock time in the store's zone; an
/// hour without a point keeps the value before it (a 23-hour day).
enum LegacyCacheFile {
    enum Content {
        case v1Average(pattern: [Double], projectedTotal: Double, cachedAt: Date)
        case v2Averages(
            [(weekday: Weekday, pattern: [Double], projectedTotal: Double, cachedAt: Date)])
        case today(
            cumulative: [Double], date: LocalDate, latestSampleTimestamp: Date?, moveGoal: Double?)
        case heatmapBuckets([(series: [String], bucket: HeatmapBucket, fetchedAt: Date)])
    }

    /// A problem with a field, named by its JSON path.
    struct Problem: Error {
        let field: String
        let reason: String
    }

    static func read(_ data: Data, zone: TimeZone) throws(Problem) -> Content {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Problem(field: "", reason: "not a JSON object")
        }
        if let buckets = object["buckets"] as? [String: Any] {
            return .heatmapBuckets(try heatmapBuckets(buckets, zone: zone))
        }
        if let weekdays = object["weekdayData"] as? [String: Any] {
            var entries: [(Weekday, [Double], Double, Date)] = []
            for (key, value) in weekdays.sorted(by: { $0.key < $1.key }) {
                guard let weekday = Int(key).flatMap(Weekday.init(rawValue:)) else {
                    throw Problem(
                        field: "weekdayData.\(key)", reason: "is not a weekday number 1…7")
                }
                guard let entry = value as? [String: Any] else {
                    throw Problem(field: "weekdayData.\(key)", reason: "is not an object")
                }
                let (pattern, total, cachedAt) = try average(
                    entry, path: "weekdayData.\(key).", zone: zone)
                entries.append((weekday, pattern, total, cachedAt))
            }
            return .v2Averages(entries)
        }
        if object["averageHourlyPattern"] != nil {
            let (pattern, total, cachedAt) = try average(object, path: "", zone: zone)
            return .v1Average(pattern: pattern, projectedTotal: total, cachedAt: cachedAt)
        }
        if let points = object["todayHourlyData"] {
            let (cumulative, date) = try pattern(points, path: "todayHourlyData", zone: zone)
            let latest: Date?
            if object["latestSampleTimestamp"] == nil || object["latestSampleTimestamp"] is NSNull {
                latest = nil
            } else {
                latest = try self.date(
                    object["latestSampleTimestamp"], path: "latestSampleTimestamp")
            }
            return .today(
                cumulative: cumulative, date: date, latestSampleTimestamp: latest,
                moveGoal: (object["moveGoal"] as? NSNumber)?.doubleValue)
        }
        throw Problem(
            field: "",
            reason:
                "not a legacy cache file (no buckets, weekdayData, averageHourlyPattern or todayHourlyData)"
        )
    }

    private static func average(_ entry: [String: Any], path: String, zone: TimeZone)
        throws(Problem) -> ([Double], Double, Date)
    {
        let (pattern, _) = try self.pattern(
            entry["averageHourlyPattern"] as Any, path: path + "averageHourlyPattern", zone: zone)
        guard let total = (entry["projectedTotal"] as? NSNumber)?.doubleValue, total.isFinite else {
            throw Problem(field: path + "projectedTotal", reason: "missing or not a number")
        }
        return (pattern, total, try date(entry["cachedAt"], path: path + "cachedAt"))
    }

    /// The 24 cumulative values of a list of `{"hour", "calories"}` points, and the local date they belong to.
    private static func pattern(_ value: Any, path: String, zone: TimeZone) throws(Problem) -> (
        [Double], LocalDate
    ) {
        guard let points = value as? [[String: Any]], !points.isEmpty else {
            throw Problem(field: path, reason: "missing or not a list of {hour, calories} points")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var stamped: [(date: LocalDate, hour: Int, value: Double)] = []
        for (index, point) in points.enumerated() {
            let stamp = try date(point["hour"], path: "\(path)[\(index)].hour")
            guard let calories = (point["calories"] as? NSNumber)?.doubleValue, calories.isFinite
            else {
                throw Problem(
                    field: "\(path)[\(index)].calories", reason: "missing or not a number")
            }
            let parts = calendar.dateComponents(
                [.hour, .minute, .second, .nanosecond], from: stamp)
            guard parts.minute == 0, parts.second == 0, (parts.nanosecond ?? 0) < 1_000_000 else {
                continue
            }  // a "now" marker
            stamped.append((LocalDate(containing: stamp, in: zone), parts.hour!, calories))
        }
        guard let day = stamped.map(\.date).min() else {
            throw Problem(field: path, reason: "has no point on the hour")
        }
        var cumulative = [Double?](repeating: nil, count: 24)
        for point in stamped {
            if point.date == day && point.hour >= 1 {
                cumulative[point.hour - 1] = point.value
            } else if point.date == day.adding(days: 1) && point.hour == 0 {
                cumulative[23] = point.value
            }
        }
        var running = 0.0
        return (
            cumulative.map { value in
                running = value ?? running; return running
            }, day
        )
    }

    /// The ActivityCache file's buckets: `{"Ride,Run": {"fetchedAt", "heatmapDays": […], "activities": […] or null}}`.
    ///
    /// The seed leaves the day records' fields open, so each day is read tolerantly: a
    /// `date` (YYYY-MM-DD, an ISO-8601 instant or seconds since 2001, taken as a local
    /// date in the store's zone), a `count`, and a `total`, `distance` or `value`.
    private static func heatmapBuckets(_ buckets: [String: Any], zone: TimeZone) throws(Problem)
        -> [(series: [String], bucket: HeatmapBucket, fetchedAt: Date)]
    {
        var result: [(series: [String], bucket: HeatmapBucket, fetchedAt: Date)] = []
        for (key, value) in buckets.sorted(by: { $0.key < $1.key }) {
            let path = "buckets.\(key)"
            guard let entry = value as? [String: Any] else {
                throw Problem(field: path, reason: "is not an object")
            }
            let fetchedAt = try date(entry["fetchedAt"], path: path + ".fetchedAt")
            guard let days = entry["heatmapDays"] as? [[String: Any]] else {
                throw Problem(field: path + ".heatmapDays", reason: "missing or not a list of days")
            }
            var heatmapDays: [HeatmapDay] = []
            for (index, day) in days.enumerated() {
                let dayPath = "\(path).heatmapDays[\(index)]"
                let localDate: LocalDate
                if let text = day["date"] as? String, let plain = LocalDate(text.prefix(10)),
                    text.count == 10
                {
                    localDate = plain
                } else {
                    localDate = LocalDate(
                        containing: try date(day["date"], path: dayPath + ".date"), in: zone)
                }
                var heatmapDay = HeatmapDay(date: localDate, series: [], seriesFigures: [])
                heatmapDay.count = (day["count"] as? NSNumber)?.intValue ?? 0
                heatmapDay.total =
                    ((day["total"] ?? day["distance"] ?? day["value"]) as? NSNumber)?.doubleValue
                    ?? 0
                heatmapDays.append(heatmapDay)
            }
            var activities: Data?
            if let raw = entry["activities"], !(raw is NSNull) {
                activities = try? JSONSerialization.data(
                    withJSONObject: raw, options: [.sortedKeys])
            }
            let series = key.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard !series.isEmpty else {
                throw Problem(field: path, reason: "the bucket key names no series")
            }
            result.append(
                (
                    series,
                    HeatmapBucket(
                        heatmapDays: heatmapDays.sorted { $0.date < $1.date },
                        activities: activities), fetchedAt
                ))
        }
        return result
    }

    private static func date(_ value: Any?, path: String) throws(Problem) -> Date {
        if let text = value as? String, let date = Timestamp.parse(text) { return date }
        if let number = JSONNumber.number(value), number.doubleValue.isFinite {
            return Date(timeIntervalSinceReferenceDate: number.doubleValue)
        }
        throw Problem(
            field: path, reason: "missing, or not an ISO-8601 date or seconds since 2001-01-01")
    }
}
