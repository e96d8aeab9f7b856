import ArgumentParser
import Foundation
import TrendStore
import TrendStoreImport

/// `trendstore cache`: list, refresh and clear cached aggregates.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "List, refresh or clear the cached aggregates of a store.",
        subcommands: [CacheListCommand.self, CacheRefreshCommand.self, CacheClearCommand.self])
}

struct CacheListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "Every cached aggregate with its key, computedAt, schema version and freshness at now.")

    @OptionGroup var location: StoreLocation

    @OptionGroup var reference: ReferenceInstant

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        try await reportingErrors {
            let entries = try location.open(readOnly: true).cacheEntries(now: reference.now)
            if json {
                print(try JSONOutput.encode(entries))
                return
            }
            let rows = entries.map { entry in
                [
                    entry.key, entry.computedAt.map(JSONOutput.timestamp) ?? "unreadable",
                    entry.schemaVersion.map { "v\($0)" } ?? "-",
                    entry.fresh ? "fresh" : "stale", entry.migrated ? "migrated" : "",
                ]
            }
            print(
                Table.render(header: ["key", "computed at", "schema", "verdict", ""], rows: rows))
        }
    }
}

struct CacheRefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract:
            "Refresh the seven weekday averages and today's curve of a series where the rules call for it."
    )

    @Option(help: "The series.")
    var series: String

    @OptionGroup var location: StoreLocation

    @OptionGroup var reference: ReferenceInstant

    @OptionGroup var zoneOption: ZoneOption

    func run() async throws {
        try await reportingErrors {
            let store = try location.open()
            let instant = reference.now
            let zone = zoneOption.zone(for: store)
            let averages = try await store.refreshedWeekdayAverages(
                of: series, now: instant, timeZone: zone)
            for (weekday, cached) in zip(Weekday.allCases, averages) {
                let key = SchemaKey.weekdayAverage(series, weekday: weekday, zone: zone)
                print(
                    "\(key): \(cached.value.dayCount) days, "
                        + "computed \(JSONOutput.timestamp(cached.computedAt))"
                        + (cached.isStale ? " (stale)" : "")
                        + (cached.isMigrated ? " (migrated)" : ""))
            }
            let today = try await store.refreshedToday(of: series, now: instant, timeZone: zone)
            print(
                "\(SchemaKey.today(series, zone: zone)): total \(Format.number(today.value.curve.total))"
                    + (today.isStale ? " (no sample today yet)" : ""))
        }
    }
}

struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove cached aggregates: one series', one key, or all.")

    @OptionGroup var location: StoreLocation

    @Option(help: "Remove every cached aggregate of this series.")
    var series: String?

    @Option(help: "Remove this key, for example v2/weekday-average/activeEnergy/3.")
    var bucket: String?

    @Flag(help: "Remove every cached aggregate.")
    var all = false

    func validate() throws {
        guard [series != nil, bucket != nil, all].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --series NAME, --bucket KEY and --all")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let scope: CacheScope = all ? .all : series.map(CacheScope.series) ?? .key(bucket!)
            let removed = try await location.open().clearCache(scope)
            print("removed \(removed) cached aggregate\(removed == 1 ? "" : "s")")
        }
    }
}
