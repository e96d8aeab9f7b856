import Foundation

/// One weekday's average, cached under `v2/weekday-average/<series>/<zone>/<W>` (W = 1 for
/// Sunday … 7): refreshed once it is 30 days old, and each morning of its weekday.
///
/// Body (little-endian): the weekday (1 byte), the number of days averaged (UInt16) and their
/// day numbers (Int32 each), then the pattern (``HourlyPatternCoding``).
enum WeekdayAverageCache: CachedFigures {
    static let kind = AggregatePayload.Kind(rawValue: 2)
    static let name = "weekday-average"
    static let subjectIsSeries = true

    /// The key part naming `weekday`.
    static func variant(_ weekday: Weekday) -> String { String(weekday.rawValue) }

    static func accepts(variant: String?) -> Bool { weekday(variant) != nil }

    static func encode(_ average: WeekdayAverage) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        writer.append(UInt8(average.weekday.rawValue))
        writer.appendLittleEndian(UInt16(average.days.count))
        for day in average.days { writer.appendLittleEndian(Int32(day.dayNumber)) }
        HourlyPatternCoding.append(
            average.averageHourlyPattern, total: average.projectedTotal, to: &writer)
        return writer.bytes
    }

    static func decode(_ body: [UInt8], subject series: String, variant: String?) throws
        -> WeekdayAverage
    {
        try body.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            let number = Int(try reader.readByte())
            let count = Int(try reader.readLittleEndian(UInt16.self))
            var days: [LocalDate] = []
            for _ in 0..<count {
                days.append(LocalDate(dayNumber: Int64(try reader.readLittleEndian(Int32.self))))
            }
            let (pattern, total) = try HourlyPatternCoding.read(&reader)
            guard let weekday = Weekday(rawValue: number), reader.remaining == 0,
                weekday == self.weekday(variant)
            else { throw AggregatePayload.Damage() }
            return WeekdayAverage(
                series: series, weekday: weekday, days: days, averageHourlyPattern: pattern,
                projectedTotal: total)
        }
    }

    /// ``Freshness/mustRefreshWeekdayAverage(computedAt:weekday:now:timeZone:)``.
    static func isStale(
        _ average: WeekdayAverage, computedAt: Date, variant: String?, now: Date, zone: TimeZone
    ) -> Bool {
        Freshness.mustRefreshWeekdayAverage(
            computedAt: computedAt, weekday: average.weekday, now: now, timeZone: zone)
    }

    private static func weekday(_ variant: String?) -> Weekday? {
        variant.flatMap { Int($0) }.flatMap(Weekday.init(rawValue:))
    }
}
