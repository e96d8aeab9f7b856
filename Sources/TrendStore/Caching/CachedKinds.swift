import Foundation

/// Every kind of cached aggregate this version writes: the list ``SchemaKey/parse(_:)`` reads
/// keys against, ``AggregatePayload`` accepts kind bytes from, and a series' removal walks.
/// Each kind's ``CachedFigures`` conformance follows (its kind byte, key name, body coding and
/// freshness rule): a new cached aggregate adds its conformance in this file and its line here.
enum CachedKinds {
    /// The kinds, each once (computed: a stored array of metatypes is not `Sendable`).
    static var all: [any CachedFigures.Type] {
        [WeekdayAverageCache.self, TodayCache.self, HeatmapCache.self]
    }

    /// The kind whose keys have `name` as their second part.
    static func named(_ name: some StringProtocol) -> (any CachedFigures.Type)? {
        all.first { $0.name == name }
    }

    /// Whether a stored payload's kind byte is one this version reads: a listed kind's, or
    /// the v1 average's (kept until its migration removes it).
    static func knows(_ kind: AggregatePayload.Kind) -> Bool {
        kind == V1Average.kind || all.contains { $0.kind == kind }
    }
}

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

/// A heatmap bucket, cached under `v2/heatmap/<bucket>/<zone>` (bucket =
/// ``Heatmap/bucketKey(for:)``), its body the bucket as JSON: never stale by a rule of its
/// own (hosts judge a bucket with their own `maxAge`); `cache list` calls it fresh up to
/// ``Freshness/heatmapListingMaximumAge``.
enum HeatmapCache: CachedFigures {
    static let kind = AggregatePayload.Kind(rawValue: 3)
    static let name = "heatmap"
    static let subjectIsSeries = false

    static func accepts(variant: String?) -> Bool { variant == nil }

    /// The instants of the local dates `from…through` in `zone`: the window a write of one of
    /// the bucket's series invalidates a computed bucket in.
    static func window(from: LocalDate, through: LocalDate, zone: TimeZone) -> Range<Int64> {
        let grid = LocalDayGrid(zone: zone, from: from, through: through)
        return grid.bounds(of: from).start..<grid.bounds(of: through).end
    }

    static func encode(_ bucket: HeatmapBucket) throws -> [UInt8] {
        Array(try JSONEncoder().encode(bucket))
    }

    static func decode(_ body: [UInt8], subject: String, variant: String?) throws
        -> HeatmapBucket
    {
        try JSONDecoder().decode(HeatmapBucket.self, from: Data(body))
    }

    static func isStale(
        _ bucket: HeatmapBucket, computedAt: Date, variant: String?, now: Date, zone: TimeZone
    ) -> Bool { false }

    static func isListedFresh(
        _ bucket: HeatmapBucket, computedAt: Date, variant: String?, now: Date, zone: TimeZone?
    ) -> Bool {
        Freshness.isFresh(
            computedAt: computedAt, maxAge: Freshness.heatmapListingMaximumAge, now: now)
    }
}
