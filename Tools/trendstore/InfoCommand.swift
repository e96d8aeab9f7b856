import ArgumentParser
import Foundation
import TrendStore

/// `trendstore info`: what a store holds.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a store's series, sample counts, time spans and size on disk.")

    @OptionGroup var location: StoreLocation

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(
        name: .customLong("set-default-tz"),
        help: "Record this zone as the store's default zone first (cached figures stay per zone).",
        transform: Arguments.zone)
    var defaultZone: TimeZone?

    func run() async throws {
        try await reportingErrors {
            let store = try StoreDamage.exitingOnDamage(of: location) {
                try location.open(readOnly: defaultZone == nil, showingEarlierCommit: true)
            }
            if let defaultZone { try await store.setDefaultTimeZone(defaultZone) }
            let series = try store.series()
            let samples = series.reduce(0) { $0 + $1.sampleCount }
            let info = StoreInfo(
                directory: store.directory.path, timeZone: store.defaultTimeZone.identifier,
                formatVersion: try store.formatVersion, rollupGrid: store.rollupGrid,
                hourSummaryMinute: store.hourSummaryMinute,
                schemaVersion: SchemaKey.currentVersion, migrations: try store.appliedMigrations(),
                bytesOnDisk: store.fileSize, footprint: try store.footprint(), sampleCount: samples,
                encryption: try store.encryptionCipher, series: series)
            if json {
                print(try JSONOutput.encode(info))
            } else {
                printTable(info)
            }
            // A damaged newest meta page makes LMDB show an earlier commit: say so, exit 3.
            if try !store.metaPagesAgree() {
                FileHandle.standardError.write(
                    Data(
                        "trendstore: \(Terminal.safe(info.directory)): the newest meta page of its data file is damaged, so this shows an earlier commit than the last; run trendstore verify, then restore a backup or export what it holds\n"
                            .utf8))
                throw ExitCode(3)
            }
        }
    }

    /// Prints `info` as lines and a table of its series.
    private func printTable(_ info: StoreInfo) {
        print("store     \(info.directory)")
        print("zone      \(info.timeZone)")
        print("encrypted \(info.encryption.map { "yes, \($0)" } ?? "no")")
        print(
            "format    version \(info.formatVersion), \(info.rollupGrid.rawValue) rollup grid "
                + "(hours from :\(String(format: "%02d", info.hourSummaryMinute))), "
                + "cache schema v\(info.schemaVersion), migrations: "
                + (info.migrations.isEmpty ? "none" : info.migrations.joined(separator: ", ")))
        let samples = info.sampleCount
        print(
            "size      \(Format.bytes(info.bytesOnDisk)) for \(samples) samples"
                + (samples > 0
                    ? String(
                        format: " (%.2f bytes per sample)",
                        Double(info.bytesOnDisk) / Double(samples)) : ""))
        print(
            "pages     samples \(Format.bytes(info.footprint.sampleBytes)), rollups "
                + "\(Format.bytes(info.footprint.rollupBytes)), cached aggregates "
                + "\(Format.bytes(info.footprint.cacheBytes)), change log "
                + "\(Format.bytes(info.footprint.changeLogBytes)); the rest is free or LMDB's own")
        let rows = info.series.map { item in
            [
                item.name, item.unit, String(item.sampleCount),
                item.firstStart.map(JSONOutput.timestamp) ?? "-",
                item.lastEnd.map(JSONOutput.timestamp) ?? "-",
            ]
        }
        print(
            Table.render(
                header: ["series", "unit", "samples", "first start", "last end"], rows: rows,
                rightAligned: [2]))
    }
}

/// `info --json`.
struct StoreInfo: Encodable {
    var directory: String
    var timeZone: String
    var formatVersion: Int
    var rollupGrid: RollupGrid
    /// The minute of the UTC hour at which hour summaries begin.
    var hourSummaryMinute: Int
    var schemaVersion: Int
    var migrations: [String]
    var bytesOnDisk: Int
    var footprint: StorageFootprint
    var sampleCount: Int
    /// The cipher of an encrypted store, `nil` for a plain one.
    var encryption: String?
    var series: [SeriesInfo]
}
