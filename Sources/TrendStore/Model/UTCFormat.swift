/// Formats millisecond instants as UTC text for messages, without Foundation's formatters.
enum UTCFormat {
    /// `YYYY-MM-DD` of the UTC day holding `milliseconds`.
    static func day(_ milliseconds: Int64) -> String {
        let days = milliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = CivilDate.fromDayNumber(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` of `milliseconds`.
    static func timestamp(_ milliseconds: Int64) -> String {
        let inDay = milliseconds.floorModulo(86_400_000)
        let hours = inDay / 3_600_000
        let minutes = inDay / 60_000 % 60
        let seconds = inDay / 1000 % 60
        let millis = inDay % 1000
        return day(milliseconds) + "T" + pad(hours, 2) + ":" + pad(minutes, 2) + ":"
            + pad(seconds, 2)
            + "." + pad(millis, 3) + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
