import ArgumentParser
import Foundation
import TrendStore

/// `trendstore backup`: a compacted, consistent copy of a store.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a store, compacted and consistent, while it is in use.")

    @Argument(help: "The new directory to copy the store into.")
    var destination: String

    @OptionGroup var location: StoreLocation

    func run() async throws {
        try await reportingErrors {
            let store = try location.open(readOnly: true)
            let target = URL(fileURLWithPath: destination)
            try store.backup(to: target)
            let copy = try TrendStore(
                directory: target,
                options: {
                    var o = StoreOptions(); o.readOnly = true; return o
                }())
            let report = try copy.verify()
            print(
                "backed up \(store.directory.path) to \(target.path): \(Format.bytes(copy.fileSize)) "
                    + "(from \(Format.bytes(store.fileSize))), \(report.samplesChecked) samples, "
                    + (report.isHealthy ? "verified" : "\(report.problems.count) problems"))
            if !report.isHealthy { throw ExitCode(3) }
        }
    }
}

/// `trendstore prune`: removes old samples, keeping every figure exact for what remains.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove the samples that start before a date or instant.")

    @Option(
        help:
            "Remove samples starting before this: YYYY-MM-DD (midnight in the store's zone) or an instant.",
        transform: Arguments.dateOrInstant)
    var before: Arguments.DateOrInstant

    @Option(help: "The series, comma-separated (default: every series).")
    var series: String?

    @OptionGroup var location: StoreLocation

    func run() async throws {
        try await reportingErrors {
            let store = try location.open()
            let cutoff = before.instant(in: store.defaultTimeZone)
            let names =
                try series.map { $0.split(separator: ",").map(String.init) }
                ?? store.series().map(\.name)
            for name in names {
                let removed = try await store.deleteSamples(of: name, before: cutoff)
                print("\(name): removed \(removed) samples before \(JSONOutput.timestamp(cutoff))")
            }
        }
    }
}
