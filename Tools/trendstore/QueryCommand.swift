import ArgumentParser
import Foundation
import TrendStore
import TrendStoreImport

/// `trendstore query`: the aggregates a host app shows.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print today's curve, a weekday average, a heatmap or interval statistics.",
        subcommands: [
            TodayCommand.self, WeekdayAverageCommand.self, HeatmapCommand.self,
            StatisticsCommand.self,
        ])
}

/// The `--now` option: the reference instant of a query or a cache verdict.
struct ReferenceInstant: ParsableArguments {
    @Option(
        help: "The reference instant, ISO-8601 with an offset or epoch ms (default: now).",
        transform: Arguments.instant)
    var now: Date?
}

/// Options shared by the queries: the store, the zone, the reference instant and the source.
struct QueryContext: ParsableArguments {
    @OptionGroup var location: StoreLocation

    @OptionGroup var reference: ReferenceInstant

    @OptionGroup var zoneOption: ZoneOption

    @OptionGroup var sourceOption: SourceOption

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    var instant: Date { reference.now ?? Date() }
}

struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Today's cumulative hourly curve up to now.")

    @Option(help: "The series.")
    var series: String

    @OptionGroup var context: QueryContext

    func run() async throws {
        try await reportingErrors {
            let store = try context.location.open(readOnly: true)
            let zone = context.zoneOption.zone(for: store)
            let curve = try store.todayCurve(
                of: series, now: context.instant, timeZone: zone,
                source: context.sourceOption.source)
            if context.json {
                print(try JSONOutput.encode(TodayJSON(curve)))
                return
            }
            print(
                "\(series), today \(curve.date) (\(zone.identifier)) up to \(JSONOutput.timestamp(context.instant))"
            )
            print(CurveTable.render(curve.cumulative))
            print(
                "total \(Format.number(curve.total)); latest sample "
                    + (curve.latestSampleTimestamp.map(JSONOutput.timestamp) ?? "none today"))
        }
    }
}

struct WeekdayAverageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weekday-average",
        abstract: "The average cumulative curve of one weekday over the 70 days before today.")

    @Option(help: "The series.")
    var series: String

    @Option(
        help: "The weekday, 1 = Sunday … 7 = Saturday or a name (default: today's).",
        transform: Arguments.weekday)
    var weekday: Weekday?

    @Flag(help: "Count days without samples as days of zeros.")
    var includeEmpty = false

    @Flag(help: "Use every matching day since the first sample instead of 70 days.")
    var allTime = false

    @Option(help: "Also draw the pattern, with today's curve over it, as an SVG line chart.")
    var svg: String?

    @OptionGroup var context: QueryContext

    func validate() throws {
        if let svg { try OutputPath.validate(svg, option: "--svg") }
    }

    func run() async throws {
        try await reportingErrors {
            let store = try context.location.open(readOnly: true)
            let zone = context.zoneOption.zone(for: store)
            let now = context.instant
            let day = weekday ?? Weekday(of: LocalDate(containing: now, in: zone))
            let average = try store.weekdayAverage(
                of: series, weekday: day, now: now,
                options: WeekdayAverageOptions(
                    window: allTime ? .allTime : .days(70), includeEmptyDays: includeEmpty),
                timeZone: zone, source: context.sourceOption.source)
            if let svg {
                let today = try store.todayCurve(
                    of: series, now: now, timeZone: zone, source: context.sourceOption.source)
                try SVGCharts.weekdayChart(average: average, today: today, now: now, zone: zone)
                    .write(toFile: svg, atomically: true, encoding: .utf8)
            }
            if context.json {
                print(try JSONOutput.encode(WeekdayAverageJSON(average)))
                return
            }
            print(
                "\(series), average \(day) over \(average.dayCount) days: \(average.days.map(\.description).joined(separator: " "))"
            )
            guard let pattern = average.averageHourlyPattern, let projected = average.projectedTotal
            else {
                print("no \(day) in the window has samples")
                return
            }
            print(CurveTable.render(pattern))
            print("projected total \(Format.number(projected))")
        }
    }
}

struct HeatmapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heatmap",
        abstract: "Samples per local day of a set of series, as a calendar grid.")

    @Option(help: "The series, comma-separated (for example Run,Ride).")
    var series: String

    @Option(help: "The first date, YYYY-MM-DD.", transform: Arguments.date)
    var from: LocalDate

    @Option(help: "The last date, YYYY-MM-DD.", transform: Arguments.date)
    var to: LocalDate

    @Option(help: "Also draw the heatmap as an SVG file.")
    var svg: String?

    @OptionGroup var context: QueryContext

    func validate() throws {
        guard from <= to else { throw ValidationError("--from must not be after --to") }
        guard !names.isEmpty else { throw ValidationError("--series names no series") }
        if let svg { try OutputPath.validate(svg, option: "--svg") }
    }

    var names: [String] {
        series.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }

    /// The longest range drawn as a grid or an SVG; JSON streams any range.
    static let maximumDrawnDays: Int64 = 20 * 366

    func run() async throws {
        try await reportingErrors {
            let store = try context.location.open(readOnly: true)
            let zone = context.zoneOption.zone(for: store)
            let (first, last) = (from, to)
            if context.json {
                try streamJSON(store: store, from: first, through: last, zone: zone)
                return
            }
            guard last.dayNumber - first.dayNumber < Self.maximumDrawnDays else {
                throw CommandFailure(
                    "a heatmap of more than 20 years is not drawn; use --json, which streams any range"
                )
            }
            let heatmap = try store.heatmap(
                of: names, from: first, through: last, timeZone: zone,
                source: context.sourceOption.source)
            if let svg {
                try SVGCharts.heatmap(heatmap).write(toFile: svg, atomically: true, encoding: .utf8)
            }
            print(
                "\(heatmap.bucket): \(heatmap.days.reduce(0) { $0 + $1.count }) samples on "
                    + "\(heatmap.days.filter { $0.count > 0 }.count) of \(heatmap.days.count) days")
            print(HeatmapGrid.render(heatmap))
        }
    }

    /// Writes `{"bucket": …, "days": [ … ]}` a day at a time, so memory stays flat over any range.
    private func streamJSON(store: TrendStore, from: LocalDate, through: LocalDate, zone: TimeZone)
        throws
    {
        if svg != nil {
            throw CommandFailure("--svg and --json are one or the other")
        }
        var output = BufferedOutput()
        let bucket = try JSONOutput.encode(Heatmap.bucketKey(for: names))
        output.write("{\n  \"bucket\" : \(bucket),\n  \"days\" : [")
        var separator = "\n"
        try store.forEachHeatmapDay(
            of: names, from: from, through: through, timeZone: zone,
            source: context.sourceOption.source
        ) {
            day in
            output.write(separator + "    " + (try JSONOutput.encodeLine(day)))
            separator = ",\n"
        }
        output.write("\n  ]\n}\n")
        output.flush()
    }
}

/// The today query's JSON: `{"series", "curve", "total", "latestSampleTimestamp"}`.
struct TodayJSON: Encodable {
    let curve: DayCurve
    init(_ curve: DayCurve) { self.curve = curve }

    enum CodingKeys: String, CodingKey { case series, date, curve, total, latestSampleTimestamp }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(curve.series, forKey: .series)
        try container.encode(curve.date, forKey: .date)
        try container.encode(curve.cumulative, forKey: .curve)
        try container.encode(curve.total, forKey: .total)
        try container.encode(curve.latestSampleTimestamp, forKey: .latestSampleTimestamp)
    }
}

/// The weekday-average query's JSON, with explicit nulls when no day had samples.
struct WeekdayAverageJSON: Encodable {
    let average: WeekdayAverage
    init(_ average: WeekdayAverage) { self.average = average }

    enum CodingKeys: String, CodingKey {
        case series, weekday, dayCount, days, averageHourlyPattern, projectedTotal
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(average.series, forKey: .series)
        try container.encode(average.weekday, forKey: .weekday)
        try container.encode(average.dayCount, forKey: .dayCount)
        try container.encode(average.days, forKey: .days)
        try container.encode(average.averageHourlyPattern, forKey: .averageHourlyPattern)
        try container.encode(average.projectedTotal, forKey: .projectedTotal)
    }
}

/// A 24-row table of hourly and cumulative values.
enum CurveTable {
    static func render(_ cumulative: [Double]) -> String {
        let rows = cumulative.indices.map { hour in
            let bucket = hour == 0 ? cumulative[0] : cumulative[hour] - cumulative[hour - 1]
            return [
                String(format: "%02d:00", hour), Format.number(bucket),
                Format.number(cumulative[hour]),
            ]
        }
        return Table.render(
            header: ["hour", "in hour", "cumulative"], rows: rows, rightAligned: [1, 2])
    }
}
