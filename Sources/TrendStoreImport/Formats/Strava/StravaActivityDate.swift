import TrendStore

/// Parses the `Activity Date` of Strava's bulk export: `Oct 6, 2022, 11:19:20 PM`, in UTC.
///
/// Also accepts the same without the comma after the day, 24-hour times, and ISO-8601
/// (older exports and spreadsheets that re-saved the file).
enum StravaActivityDate {
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    static func milliseconds(_ text: String) -> Int64? {
        if let iso = Array(text.utf8).withUnsafeBytes(TimestampParser.milliseconds) { return iso }
        if let iso = Array((text.replacingOccurrences(of: " ", with: "T") + "Z").utf8)
            .withUnsafeBytes(TimestampParser.milliseconds)
        {
            return iso  // "2022-10-06 23:19:20", UTC
        }
        let words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(
            String.init)
        guard words.count >= 4,
            let month = months.firstIndex(of: String(words[0].prefix(3)).lowercased()),
            let day = Int(words[1]), let year = Int(words[2])
        else { return nil }
        let clock = words[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 || clock.count == 2 else { return nil }
        var hour = clock[0]
        if words.count >= 5 {
            let meridiem = words[4].uppercased()
            guard (1...12).contains(hour), meridiem == "AM" || meridiem == "PM" else { return nil }
            hour = hour % 12 + (meridiem == "PM" ? 12 : 0)
        }
        guard let date = LocalDate(year: year, month: month + 1, day: day), hour < 24,
            clock[1] < 60,
            (clock.count == 2 ? 0 : clock[2]) < 61
        else { return nil }
        let seconds = Int64(hour * 3600 + clock[1] * 60 + (clock.count == 3 ? clock[2] : 0))
        return date.dayNumber * 86_400_000 + seconds * 1000
    }
}
