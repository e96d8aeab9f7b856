import Foundation

/// The one average pattern for all days that schema v1 cached (`average-data-cache.json`).
struct V1Average: Equatable {
    var pattern: [Double]
    var projectedTotal: Double
}

/// Binary bodies of the cached aggregates (format 1), inside ``AggregatePayload``.
enum PayloadBodies {
    static func encode(_ average: WeekdayAverage) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        writer.append(UInt8(average.weekday.rawValue))
        writer.appendLittleEndian(UInt16(average.days.count))
        for day in average.days { writer.appendLittleEndian(Int32(day.dayNumber)) }
        appendPattern(average.averageHourlyPattern, total: average.projectedTotal, to: &writer)
        return writer.bytes
    }

    static func weekdayAverage(series: String, _ body: [UInt8]) throws -> WeekdayAverage {
        try body.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            let number = Int(try reader.readByte())
            let count = Int(try reader.readLittleEndian(UInt16.self))
            var days: [LocalDate] = []
            for _ in 0..<count {
                days.append(LocalDate(dayNumber: Int64(try reader.readLittleEndian(Int32.self))))
            }
            let (pattern, total) = try readPattern(&reader)
            guard let weekday = Weekday(rawValue: number), reader.remaining == 0 else {
                throw AggregatePayload.Damage()
            }
            return WeekdayAverage(
                series: series, weekday: weekday, days: days, averageHourlyPattern: pattern,
                projectedTotal: total)
        }
    }

    static func encode(_ snapshot: TodaySnapshot) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        writer.appendLittleEndian(Int32(snapshot.curve.date.dayNumber))
        for value in snapshot.curve.cumulative { writer.appendDouble(value) }
        writer.append(snapshot.curve.latestSampleTimestamp == nil ? 0 : 1)
        writer.appendLittleEndian(
            snapshot.curve.latestSampleTimestamp.map(\.millisecondsSince1970) ?? 0)
        writer.append(snapshot.moveGoal == nil ? 0 : 1)
        writer.appendDouble(snapshot.moveGoal ?? 0)
        return writer.bytes
    }

    static func today(series: String, _ body: [UInt8]) throws -> TodaySnapshot {
        try body.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            let date = LocalDate(dayNumber: Int64(try reader.readLittleEndian(Int32.self)))
            var cumulative: [Double] = []
            for _ in 0..<24 { cumulative.append(try reader.readDouble()) }
            let hasLatest = try reader.readByte()
            let latest = try reader.readLittleEndian(Int64.self)
            let hasGoal = try reader.readByte()
            let goal = try reader.readDouble()
            guard hasLatest <= 1, hasGoal <= 1, reader.remaining == 0 else {
                throw AggregatePayload.Damage()
            }
            return TodaySnapshot(
                curve: DayCurve(
                    series: series, date: date, cumulative: cumulative,
                    latestSampleTimestamp: hasLatest == 1 ? Date(milliseconds: latest) : nil),
                moveGoal: hasGoal == 1 ? goal : nil)
        }
    }

    static func encode(_ average: V1Average) -> [UInt8] {
        var writer = ByteWriter(capacity: 208)
        appendPattern(average.pattern, total: average.projectedTotal, to: &writer)
        return writer.bytes
    }

    static func v1Average(_ body: [UInt8]) throws -> V1Average {
        try body.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            let (pattern, total) = try readPattern(&reader)
            guard let pattern, let total, reader.remaining == 0 else {
                throw AggregatePayload.Damage()
            }
            return V1Average(pattern: pattern, projectedTotal: total)
        }
    }

    private static func appendPattern(
        _ pattern: [Double]?, total: Double?, to writer: inout ByteWriter
    ) {
        guard let pattern, let total, pattern.count == 24 else {
            writer.append(0)
            return
        }
        writer.append(1)
        for value in pattern { writer.appendDouble(value) }
        writer.appendDouble(total)
    }

    private static func readPattern(_ reader: inout ByteReader) throws -> ([Double]?, Double?) {
        let present = try reader.readByte()
        guard present == 1 else {
            guard present == 0 else { throw AggregatePayload.Damage() }
            return (nil, nil)
        }
        var pattern: [Double] = []
        for _ in 0..<24 { pattern.append(try reader.readDouble()) }
        return (pattern, try reader.readDouble())
    }
}
