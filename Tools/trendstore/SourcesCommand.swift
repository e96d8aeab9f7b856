import ArgumentParser
import Foundation
import TrendStore

/// `trendstore sources`: the sources of a store's series, and their priority orders.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract:
            "List the sources (devices and apps) of each series, or set a series' priority order.",
        discussion: """
            Where the samples of several sources of a cumulative series overlap, the source \
            ranked highest counts. `trendstore sources` lists each series' sources in that \
            order with their sample counts and spans; `trendstore sources priority SERIES \
            SOURCE...` sets it.
            """,
        subcommands: [SourcesListCommand.self, SourcesPriorityCommand.self],
        defaultSubcommand: SourcesListCommand.self)
}

/// `trendstore sources [list]`.
struct SourcesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List each series' sources in priority order, highest first.")

    @OptionGroup var location: StoreLocation

    @Option(help: "Only this series.")
    var series: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        try await reportingErrors {
            let store = try StoreDamage.exitingOnDamage(of: location) {
                try location.open(readOnly: true)
            }
            let names = try series.map { [$0] } ?? store.series().map(\.name)
            let listed = try names.map { name in
                SeriesSources(
                    series: SeriesName.normalized(name),
                    priority: try store.sourcePriority(of: name),
                    sources: try store.sources(of: name))
            }
            if json {
                print(try JSONOutput.encode(listed))
                return
            }
            // Names may hold any character: each cell is made safe for a terminal.
            let rows = listed.flatMap { entry in
                entry.sources.map { source in
                    [
                        entry.series, String(source.rank), SourceName.display(source.name),
                        String(source.sampleCount),
                        source.firstStart.map(JSONOutput.timestamp) ?? "-",
                        source.lastEnd.map(JSONOutput.timestamp) ?? "-",
                    ].map(Terminal.safe)
                }
            }
            print(
                Table.render(
                    header: ["series", "rank", "source", "samples", "first start", "last end"],
                    rows: rows, rightAligned: [1, 3]))
            for entry in listed where !entry.priority.isEmpty {
                print(
                    Terminal.safe(
                        "priority of \(entry.series): "
                            + entry.priority.map(SourceName.display).joined(separator: ", ")))
            }
        }
    }
}

/// `trendstore sources priority SERIES SOURCE...`.
struct SourcesPriorityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "priority",
        abstract: "Set the order in which a series' sources count where they overlap.",
        discussion: """
            Name the sources highest first; sources not named rank below them, watches \
            first, then iPhones, then the others by name, the default source last. An empty \
            name ('') is the default source. With no source, the default order is restored. \
            The series' figures are rebuilt under the new order.
            """)

    @OptionGroup var location: StoreLocation

    @Argument(help: "The series.")
    var series: String

    @Argument(help: "Its sources, highest priority first.", transform: Arguments.source)
    var sources: [String] = []

    func run() async throws {
        try await reportingErrors {
            let store = try location.open(readOnly: false)
            try await store.setSourcePriority(sources, for: series)
            let ranked = try store.sources(of: series)
            print(
                Terminal.safe(
                    "\(SeriesName.normalized(series)): "
                        + ranked.map { "\($0.rank). \(SourceName.display($0.name))" }.joined(
                            separator: ", ")))
            await store.close()
        }
    }
}

/// `--source NAME` of the queries: one source's figures alone.
struct SourceOption: ParsableArguments {
    @Option(
        help:
            "One source's figures alone (default: every source, merged by the series' priority order; '' is the default source).",
        transform: Arguments.source)
    var source: String?
}

/// One series' entry of `sources --json`.
struct SeriesSources: Encodable {
    var series: String
    /// The order set for it (empty: the default order).
    var priority: [String]
    /// Its sources, in priority order.
    var sources: [SourceInfo]
}
