import Foundation
import LMDB

/// How many samples started on one local day, and the sum of their values.
public struct DayCount: Sendable, Codable, Equatable {
    /// Samples whose start lies in the day.
    public var count: Int
    /// The sum of their whole values (not prorated).
    public var total: Double

    /// Creates a count.
    public init(count: Int, total: Double) {
        self.count = count
        self.total = total
    }
}

/// One day of a heatmap: the figures of all its series together and of each alone.
public struct HeatmapDay: Sendable, Codable, Equatable {
    /// The local date.
    public var date: LocalDate
    /// Samples of all the heatmap's series starting in the day.
    public var count: Int
    /// The sum of their values.
    public var total: Double
    /// Where the figures of each series are.
    private let perSeries: PerSeries

    /// The figures of each series of a day: a day of one series holds them inline (a year of
    /// days takes no reference count); a day of several reads its place in the figures
    /// every day of the heatmap shares.
    private enum PerSeries: Sendable {
        /// The one series of the heatmap and its figures.
        case one(String, DayCount)
        /// Day `day` of `figures`.
        case shared(HeatmapFigures, day: Int)
    }

    /// The heatmap's series names, sorted: the same for all its days.
    public var series: [String] {
        switch perSeries {
        case .one(let name, _): [name]
        case .shared(let figures, _): figures.series
        }
    }

    /// The figures of each series, in the order of ``series``.
    public var seriesFigures: [DayCount] {
        switch perSeries {
        case .one(_, let figures): [figures]
        case .shared(let figures, let day): figures.figures(ofDay: day)
        }
    }

    /// Creates a day from per-series figures aligned with `series`, pairing them up to the
    /// shorter of the two.
    public init(date: LocalDate, series: [String], seriesFigures: [DayCount]) {
        let paired = min(series.count, seriesFigures.count)
        self.init(
            date: date,
            figures: HeatmapFigures(
                series: Array(series.prefix(paired)),
                counts: seriesFigures.prefix(paired).map { [$0.count] },
                sums: seriesFigures.prefix(paired).map { [$0.total] }),
            day: 0)
    }

    /// Day `day` of `figures`, its totals added series by series in order.
    init(date: LocalDate, figures: HeatmapFigures, day: Int) {
        self.date = date
        var count = 0
        var total = 0.0
        for index in figures.series.indices {
            count += figures.counts[index][day]
            total += figures.sums[index][day]
        }
        self.count = count
        self.total = total
        perSeries =
            figures.series.count == 1
            ? .one(figures.series[0], DayCount(count: count, total: total))
            : .shared(figures, day: day)
    }

    /// The same figures for each series, by name.
    public var bySeries: [String: DayCount] {
        Dictionary(uniqueKeysWithValues: zip(series, seriesFigures))
    }

    /// Whether the two days have the same date, totals, series and figures.
    public static func == (lhs: HeatmapDay, rhs: HeatmapDay) -> Bool {
        lhs.date == rhs.date && lhs.count == rhs.count && lhs.total == rhs.total
            && lhs.series == rhs.series && lhs.seriesFigures == rhs.seriesFigures
    }

    private enum CodingKeys: String, CodingKey { case date, count, total, bySeries }

    /// Decodes `{"date", "count", "total", "bySeries": {name: {"count", "total"}}}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bySeries =
            try container.decodeIfPresent([String: DayCount].self, forKey: .bySeries)?.sorted {
                $0.key < $1.key
            } ?? []
        self.init(
            date: try container.decode(LocalDate.self, forKey: .date), series: bySeries.map(\.key),
            seriesFigures: bySeries.map(\.value))
        count = try container.decodeIfPresent(Int.self, forKey: .count) ?? count
        total = try container.decodeIfPresent(Double.self, forKey: .total) ?? total
    }

    /// Encodes `{"date", "count", "total", "bySeries": {name: {"count", "total"}}}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(count, forKey: .count)
        try container.encode(total, forKey: .total)
        try container.encode(bySeries, forKey: .bySeries)
    }
}

/// Per-day counts and totals of a set of series over a range of local dates, such as
/// activities per day for a contribution-graph calendar.
public struct Heatmap: Sendable, Codable, Equatable {
    /// The cache bucket of the series set: ``bucketKey(for:)``.
    public var bucket: String
    /// One entry per date of the range, empty days included, oldest first.
    public var days: [HeatmapDay]

    /// Creates a heatmap.
    public init(bucket: String, days: [HeatmapDay]) {
        self.bucket = bucket
        self.days = days
    }

    /// The bucket key of a set of series: their names in NFC, sorted, each with `%` written
    /// `%25` and `,` written `%2C`, joined by `,`: `["Run", "Ride"]` → `"Ride,Run"`, and
    /// `["Ride,Run"]` → `"Ride%2CRun"`, so no two sets share a key.
    public static func bucketKey(for series: some Sequence<String>) -> String {
        Set(series.map(SeriesName.normalized)).sorted().map(escaped).joined(separator: ",")
    }

    /// The series names of a key made by ``bucketKey(for:)``.
    static func seriesNames(inBucket bucket: String) -> [String] {
        bucket.split(separator: ",", omittingEmptySubsequences: false).map { name in
            guard name.contains("%") else { return String(name) }
            return name.replacingOccurrences(of: "%2C", with: ",").replacingOccurrences(
                of: "%25", with: "%")
        }
    }

    /// `name` with `%` and `,` escaped, so it is one name of a bucket key.
    private static func escaped(_ name: String) -> String {
        guard name.contains(where: { $0 == "%" || $0 == "," }) else { return name }
        return name.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(
            of: ",", with: "%2C")
    }
}

/// Heatmaps, computed inside any transaction.
extension Queries {
    /// The heatmap of `series` over `from...through`, every day kept as it is handed over.
    func heatmap<T: ReadableTransaction & ~Copyable>(
        of series: [String], from: LocalDate, through: LocalDate, zone: TimeZone,
        source: String? = nil, in txn: borrowing T
    ) throws -> Heatmap {
        var days: [HeatmapDay] = []
        days.reserveCapacity(Int(min(max(through.dayNumber - from.dayNumber + 1, 0), 1 << 16)))
        try forEachHeatmapDay(
            of: series, from: from, through: through, zone: zone, source: source, in: txn
        ) { day in days.append(consume day) }
        return Heatmap(bucket: Heatmap.bucketKey(for: series), days: days)
    }

    /// Calls `body` with each day of the heatmap of `series` over `from...through`, oldest
    /// first, computing a year at a time so memory stays flat over any range. Each day is
    /// handed over (`consuming`): kept, it costs no second reference to the figures it shares.
    func forEachHeatmapDay<T: ReadableTransaction & ~Copyable>(
        of series: [String], from: LocalDate, through: LocalDate, zone: TimeZone,
        source: String? = nil, in txn: borrowing T, _ body: (consuming HeatmapDay) throws -> Void
    ) throws {
        try SampleRules.checkDates(from, through)
        guard from <= through else {
            throw StoreError.invalidArgument(
                .range, reason: "the heatmap range \(from)…\(through) ends before it starts")
        }
        let names = Set(series.map(SeriesName.normalized)).sorted()
        let grid = LocalDayGrid(zone: zone, from: from, through: through)
        let aggregators = try names.map {
            try aggregator(
                of: try storage.requireSeries(named: $0, in: txn), source: source, in: txn)
        }
        var first = from
        while first <= through {
            let last = min(first.adding(days: 365), through)
            let dayCount = Int(last.dayNumber - first.dayNumber) + 1
            let runs = grid.dayRuns(from: first, through: last)
            let perSeries = try aggregators.map {
                try $0.dayTotals(of: runs, dayCount: dayCount, txn: txn)
            }
            let figures = HeatmapFigures(
                series: names, counts: perSeries.map(\.counts),
                sums: perSeries.map(\.sums))
            for index in 0..<dayCount {
                try body(HeatmapDay(date: first.adding(days: index), figures: figures, day: index))
            }
            first = last.adding(days: 1)
        }
    }
}
