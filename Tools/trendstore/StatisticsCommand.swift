import ArgumentParser
import Foundation
import TrendStore

/// `trendstore query stats`: per-interval statistics, like HealthKit's statistics collection query.
struct StatisticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Per-interval sum, average, minimum, maximum, count and most recent value.",
        discussion: """
            Minute and hour buckets are fixed lengths aligned to --anchor (default: local \
            midnight of --from); day, week and month buckets are wall-clock dates in the zone. \
            Average, minimum, maximum and most-recent apply to discrete series only.
            """)

    @Option(help: "The series.")
    var series: String

    @Option(
        help: "The first date (local midnight in the zone) or instant of the range.",
        transform: Arguments.dateOrInstant)
    var from: Arguments.DateOrInstant

    @Option(
        help: "The date or instant the range ends before.", transform: Arguments.dateOrInstant)
    var to: Arguments.DateOrInstant

    @Option(
        help: "The bucket length: a count and min, h, d, w or mo (15min, 1h, 4h, 1d, 1w, 1mo).",
        transform: Arguments.interval)
    var interval: StatisticsInterval

    @Option(
        help: "A date or instant on the bucket grid (default: local midnight of --from).",
        transform: Arguments.dateOrInstant)
    var anchor: Arguments.DateOrInstant?

    @Option(
        help:
            "The figures, comma-separated: sum, avg, min, max, count, most-recent (default: sum,count for cumulative series, all for discrete).",
        transform: Arguments.statistics)
    var stat: StatisticsOptions?

    @OptionGroup var location: StoreLocation

    @OptionGroup var zoneOption: ZoneOption

    @OptionGroup var sourceOption: SourceOption

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        try await reportingErrors {
            let store = try location.open(readOnly: true)
            let zone = zoneOption.zone(for: store)
            guard let kind = try store.kind(of: series) else {
                // The library's error names the closest series.
                _ = try store.statistics(
                    of: series, from: Date(), to: Date(), interval: interval, options: [.count])
                return
            }
            let options =
                stat
                ?? (kind == .discrete
                    ? [.sum, .average, .minimum, .maximum, .count, .mostRecent] : [.sum, .count])
            let answer = try store.statistics(
                of: series, from: from.instant(in: zone), to: to.instant(in: zone),
                interval: interval, anchor: anchor?.instant(in: zone), timeZone: zone,
                options: options, source: sourceOption.source)
            if json {
                var output = BufferedOutput()
                StatisticsJSON.write(answer, to: &output)
                output.flush()
            } else {
                print(StatisticsTable.render(answer))
            }
        }
    }
}

/// The statistics query's JSON, keys in the documented order, only the asked figures present:
/// `{"series", "kind", "timeZone", "interval", "buckets": [{"start", "end", "sum",
/// "average", "minimum", "maximum", "count", "mostRecent": {"start", "end", "value"}}]}`,
/// times in epoch ms, values as the shortest decimal that reads back to the same double.
enum StatisticsJSON {
    static func write(_ answer: IntervalStatistics, to output: inout BufferedOutput) {
        let options = answer.options
        output.write(
            "{\"series\": \(string(answer.series)), \"kind\": \"\(answer.kind.rawValue)\", "
                + "\"timeZone\": \(string(answer.timeZone.identifier)), "
                + "\"interval\": \"\(answer.interval)\",\n \"buckets\": [")
        var separator = "\n  "
        for bucket in answer.buckets {
            var fields = [
                "\"start\": \(bucket.start.millisecondsSince1970)",
                "\"end\": \(bucket.end.millisecondsSince1970)",
            ]
            if options.contains(.sum) { fields.append("\"sum\": \(number(bucket.sum))") }
            if options.contains(.average) {
                fields.append("\"average\": \(number(bucket.average))")
            }
            if options.contains(.minimum) {
                fields.append("\"minimum\": \(number(bucket.minimum))")
            }
            if options.contains(.maximum) {
                fields.append("\"maximum\": \(number(bucket.maximum))")
            }
            if options.contains(.count) {
                fields.append("\"count\": \(bucket.count.map(String.init) ?? "null")")
            }
            if options.contains(.mostRecent) {
                let recent = bucket.mostRecent.map {
                    "{\"start\": \($0.startMilliseconds), \"end\": \($0.endMilliseconds), "
                        + "\"value\": \(number($0.value))}"
                }
                fields.append("\"mostRecent\": \(recent ?? "null")")
            }
            output.write(separator + "{" + fields.joined(separator: ", ") + "}")
            separator = ",\n  "
        }
        output.write("]}\n")
    }

    /// A JSON number (Swift's shortest round-tripping decimal), or `null`.
    private static func number(_ value: Double?) -> String {
        value.map { "\($0)" } ?? "null"
    }

    /// A JSON string.
    private static func string(_ text: String) -> String {
        (try? JSONOutput.encodeLine(text)) ?? "\"\""
    }
}

/// A table of the buckets: one row each, the asked figures as columns.
enum StatisticsTable {
    static func render(_ answer: IntervalStatistics) -> String {
        let options = answer.options
        let zone = answer.timeZone
        let columns: [(StatisticsOptions, String, (StatisticsBucket) -> String)] = [
            (.sum, "sum", { $0.sum.map(Format.number) ?? "–" }),
            (.average, "average", { $0.average.map(Format.number) ?? "–" }),
            (.minimum, "minimum", { $0.minimum.map(Format.number) ?? "–" }),
            (.maximum, "maximum", { $0.maximum.map(Format.number) ?? "–" }),
            (.count, "count", { $0.count.map(String.init) ?? "–" }),
            (
                .mostRecent, "most recent",
                {
                    $0.mostRecent.map {
                        "\(Format.number($0.value)) at \(Timestamps.text($0.start, in: zone))"
                    } ?? "–"
                }
            ),
        ].filter { options.contains($0.0) }
        let rows = answer.buckets.map { bucket in
            [Timestamps.text(bucket.start, in: zone)] + columns.map { $0.2(bucket) }
        }
        let title =
            "\(answer.series) (\(answer.kind.rawValue)), \(answer.interval) buckets in "
            + "\(answer.timeZone.identifier)"
        return title + "\n"
            + Table.render(
                header: ["start"] + columns.map(\.1), rows: rows,
                rightAligned: Set(1...max(columns.count, 1)))
    }
}
