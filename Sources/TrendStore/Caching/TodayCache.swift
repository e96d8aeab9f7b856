import Foundation

/// Today's curve and move goal, cached under `v2/today/<series>/<zone>`: stale once its latest
/// sample is not from the local day of now.
///
/// Body (little-endian): the curve's day number (Int32), its 24 cumulative values (Float64),
/// a presence byte and the latest sample's end (ms, Int64), a presence byte and the move goal
/// (Float64).
enum TodayCache: CachedFigures {
    static let kind = AggregatePayload.Kind(rawValue: 1)
    static let name = "today"
    static let subjectIsSeries = true

    static func accepts(variant: String?) -> Bool { variant == nil }

    /// The instants of the local day of `curve` in `zone`: the window a write invalidates
    /// a today cache in.
    static func window(of curve: DayCurve, zone: TimeZone) -> Range<Int64> {
        let bounds = LocalDayGrid(zone: zone, from: curve.date, through: curve.date).bounds(
            of: curve.date)
        return bounds.start..<bounds.end
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

    static func decode(_ body: [UInt8], subject series: String, variant: String?) throws
        -> TodaySnapshot
    {
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

    /// Stale when it has no latest sample, or one not on the local day of `now`
    /// (``Freshness/isTodayStale(latestSampleTimestamp:now:timeZone:)``).
    static func isStale(
        _ snapshot: TodaySnapshot, computedAt: Date, variant: String?, now: Date, zone: TimeZone
    ) -> Bool {
        Freshness.isTodayStale(
            latestSampleTimestamp: snapshot.curve.latestSampleTimestamp, now: now, timeZone: zone)
    }
}
