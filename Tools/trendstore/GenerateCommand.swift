import ArgumentParser
import Foundation
import TrendStore
import TrendStoreGenerator

/// `trendstore generate`: writes a deterministic dataset to a CSV file or a store.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a deterministic dataset of minute-cadence energy and daily activities.")

    @Option(help: "How many local days to generate.")
    var days: Int

    @Option(help: "The seed: the same seed gives the same data.")
    var seed: UInt64 = 1

    @Option(
        help: "The time zone whose days shape the data (default: the system's).",
        transform: Arguments.zone)
    var tz: TimeZone?

    @Option(help: "The last date generated, YYYY-MM-DD (default: today in the zone).")
    var end: String?

    @Option(
        help: "Write to this file: CSV, or an Apple Health export.xml when the name ends in .xml.")
    var out: String?

    @Option(name: .customLong("store"), help: "Write straight into the store in this directory.")
    var storePath: String?

    @OptionGroup var key: KeyFileOption

    @Flag(
        help:
            "Also generate heartRate, a discrete series: a reading every 5 s during activities, every 5 min otherwise (CSV or store)."
    )
    var heartRate = false

    @Option(help: "Decimal places of the energy values, 0 to 9 (default: the profile's, 3 or 4).")
    var decimals: Int?

    @Option(
        help:
            "The data's shape: generated (contiguous minute energy), irregular (a watch's: gaps, jitter, overlaps, out-of-order rows, 4 decimals), heartRate (heart rate every 1–10 s), sparse (one energy sample a day), random (shape drawn from --seed)."
    )
    var profile: DataProfile = .generated

    func validate() throws {
        guard days > 0 else { throw ValidationError("--days must be at least 1") }
        guard (out == nil) != (storePath == nil) else {
            throw ValidationError("give exactly one of --out FILE.csv and --store DIR")
        }
        if let out { try OutputPath.validate(out, option: "--out") }
        guard (0...9).contains(decimals ?? 3) else {
            throw ValidationError("--decimals must be between 0 and 9")
        }
        if heartRate || profile == .heartRate, out?.hasSuffix(".xml") == true {
            throw ValidationError("--heart-rate is written to a CSV file or a store, not to XML")
        }
        if let end, LocalDate(end) == nil {
            throw ValidationError("--end \(end) is not a YYYY-MM-DD date")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let zone = tz ?? .current
            var configuration = DatasetGenerator.Configuration(
                days: days,
                endDate: end.flatMap(LocalDate.init) ?? LocalDate(containing: Date(), in: zone))
            configuration.seed = seed
            configuration.timeZone = zone
            profile.configure(&configuration, seed: seed)
            if heartRate { configuration.heartRateSeries = "heartRate" }
            if let decimals { configuration.energyDecimals = decimals }
            let generator = DatasetGenerator(configuration)
            if let out, out.hasSuffix(".xml") {
                let exportDate = configuration.endDate.adding(days: 1).firstInstant(in: zone)
                    .addingTimeInterval(9 * 3_600)
                let writer = try AppleHealthXMLWriter(path: out, exportDate: exportDate, zone: zone)
                try generator.generate { try writer.write($0) }
                try writer.close()
                print("wrote \(writer.count) records and workouts to \(out)")
            } else if let out {
                let writer = try SampleCSVWriter(
                    path: out, includesKind: configuration.heartRateSeries != nil)
                try generator.generate { try writer.write($0) }
                try writer.close()
                print("wrote \(writer.count) samples to \(out)")
            } else if let storePath {
                var options = StoreOptions()
                options.timeZone = zone
                try key.apply(to: &options)
                let store = try TrendStore(
                    directory: URL(fileURLWithPath: storePath), options: options)
                var pending: [SeriesSamples] = []
                var pendingCount = 0
                var total = 0
                for date in generator.dates {
                    for part in generator.day(date) {
                        pending.append(part)
                        pendingCount += part.samples.count
                    }
                    if pendingCount >= 250_000 || date == generator.dates.last {
                        try await store.write(pending)
                        total += pendingCount
                        pending = []
                        pendingCount = 0
                    }
                }
                print("wrote \(total) samples to \(storePath)")
            }
        }
    }
}

extension DataProfile: ExpressibleByArgument {}
