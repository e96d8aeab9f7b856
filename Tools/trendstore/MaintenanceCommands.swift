import ArgumentParser
import Foundation
import TrendStore

/// `trendstore backup`: a compacted, consistent copy of a store, under its own key, another
/// key or none.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract:
            "Copy a store, compacted and consistent, while it is in use; encrypt, re-key or decrypt the copy.",
        discussion:
            "The copy is verified before the command reports it. With --new-key-file or --decrypt it is written beside the destination under a hidden name, verified, then renamed: a stopped copy leaves no store at the destination."
    )

    @Argument(help: "The new directory to copy the store into.")
    var destination: String

    @OptionGroup var location: StoreLocation

    @Option(
        name: .customLong("new-key-file"),
        help: ArgumentHelp(
            "Encrypt the copy with the key in this file (another key, or a first key for a plain store).",
            valueName: "path"))
    var newKeyFile: String?

    @Flag(help: "Write the copy in the clear: anyone with its file can then read it.")
    var decrypt = false

    func validate() throws {
        if newKeyFile != nil && decrypt {
            throw ValidationError("--new-key-file and --decrypt exclude each other")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let store = try location.open(readOnly: true)
            let target = URL(fileURLWithPath: destination)
            var options = StoreOptions()
            options.readOnly = true
            if newKeyFile != nil || decrypt {
                #if Encryption
                    let key = try newKeyFile.map(KeyFile.read)
                    try store.backup(to: target, encryptingWith: key)
                    options.encryptionKey = key
                #else
                    throw CommandFailure(
                        "this build of trendstore has no encryption (package trait Encryption)")
                #endif
            } else {
                try store.backup(to: target)
                try location.key.apply(to: &options)
            }
            let copy = try TrendStore(directory: target, options: options)
            let report = try copy.verify()
            let encryption =
                try copy.encryptionCipher.map { "encrypted with \($0)" } ?? "not encrypted"
            print(
                "backed up \(store.directory.path) to \(target.path): \(Format.bytes(copy.fileSize)) "
                    + "(from \(Format.bytes(store.fileSize))), \(report.samplesChecked) samples, "
                    + "\(encryption), "
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
