import ArgumentParser
import Foundation
import TrendStore
import TrendStoreImport

/// `trendstore export`: samples in the importer's own formats.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write samples as CSV or NDJSON that `trendstore import` reads back bit for bit.")

    @Option(help: "The series, comma-separated.")
    var series: String

    @Option(
        help:
            "The first date (YYYY-MM-DD in the store's zone) or instant (default: the first sample).",
        transform: Arguments.dateOrInstant)
    var from: Arguments.DateOrInstant?

    @Option(
        help:
            "The end, exclusive: a date (its midnight in the store's zone) or instant (default: after the last).",
        transform: Arguments.dateOrInstant)
    var to: Arguments.DateOrInstant?

    @Option(help: "csv or ndjson.")
    var format: String = "csv"

    @Option(help: "Write to this file instead of standard output.")
    var out: String?

    @OptionGroup var location: StoreLocation

    func validate() throws {
        guard ExportFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be csv or ndjson, not \(format)")
        }
        if series.split(separator: ",", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        {
            throw ValidationError("--series \"\(series)\" names an empty series")
        }
        if let out { try OutputPath.validate(out, option: "--out") }
    }

    func run() async throws {
        try await reportingErrors {
            let store = try location.open(readOnly: true)
            let zone = store.defaultTimeZone
            let output: FileHandle
            if let out {
                // An encrypted store's samples in the clear are as private as its backups.
                let isPrivate = try store.encryptionCipher != nil
                guard
                    FileManager.default.createFile(
                        atPath: out, contents: nil,
                        attributes: isPrivate ? [.posixPermissions: 0o600] : nil),
                    let handle = FileHandle(forWritingAtPath: out)
                else { throw CommandFailure("\(out): cannot be created for writing") }
                output = handle
            } else {
                output = FileHandle.standardOutput
            }
            let count = try await Exporter(store: store).export(
                series: series.split(separator: ",").map(String.init),
                from: from?.instant(in: zone) ?? .distantPast,
                to: to?.instant(in: zone) ?? .distantFuture,
                format: ExportFormat(rawValue: format) ?? .csv, to: output)
            if let out {
                try output.close()
                FileHandle.standardError.write(Data("wrote \(count) samples to \(out)\n".utf8))
            }
        }
    }
}
