import ArgumentParser
import Foundation
import TrendStore

/// `trendstore changes`: what a store committed after an anchor, as a change-set file.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Write what a store committed after an anchor to a change-set file.",
        discussion: """
            Prints the anchor of the newest commit the file covers: give it to --since next \
            time. Without --since, the file holds everything the store holds and remembers. \
            An anchor older than the store's change retention is refused; start again \
            without one. The file of an encrypted store (opened with --key-file) is sealed \
            with its key: whoever relays it learns only its size.
            """)

    @OptionGroup var location: StoreLocation

    @Option(help: "The anchor printed by the last run (default: everything).")
    var since: String?

    @Option(help: "The change-set file to write.")
    var out: String

    @Flag(help: "Print {\"anchor\", \"samples\", \"deletions\", \"bytes\"} as JSON.")
    var json = false

    func validate() throws {
        try OutputPath.validate(out, option: "--out")
        if let since, ChangeAnchor(since) == nil {
            throw ValidationError("--since \(since): not a change anchor (ts1-…)")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let store = try location.open(readOnly: true)
            let changes = try store.changes(since: since.flatMap(ChangeAnchor.init))
            let bytes = try ChangeSetFile.bytes(of: changes, key: location.key)
            do {
                try bytes.write(to: URL(fileURLWithPath: out), options: .atomic)
            } catch {
                throw CommandFailure("--out \(out): \((error as NSError).localizedDescription)")
            }
            if json {
                print(
                    try JSONOutput.encode(
                        ChangesReport(
                            anchor: changes.anchor.description, samples: changes.sampleCount,
                            deletions: changes.deletionCount, bytes: bytes.count)))
            } else {
                print(changes.anchor.description)
            }
            await store.close()
        }
    }
}

/// What `trendstore changes --json` prints.
struct ChangesReport: Encodable {
    let anchor: String
    let samples: Int
    let deletions: Int
    let bytes: Int
}

/// `trendstore apply FILE...`: change-set files applied to a store.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply change-set files (from trendstore changes) to a store.",
        discussion: """
            Each file is applied in one transaction: all of it or nothing. Applying a file \
            twice changes nothing; stores that exchange files in any order converge. A sealed \
            file (from an encrypted store) opens with the key of --key-file.
            """)

    @OptionGroup var location: StoreLocation

    @Argument(help: "The change-set files.")
    var files: [String]

    func run() async throws {
        try await reportingErrors {
            let sets = try files.map { ($0, try ChangeSetFile.read($0, key: location.key)) }
            let store = try location.open()
            for (file, changes) in sets {
                do {
                    let summary = try await store.apply(changes)
                    print(Terminal.safe("\(file): \(SyncReport.describe(summary))"))
                } catch {
                    throw CommandFailure("\(file): \(error)")
                }
            }
            await store.close()
        }
    }
}

/// `trendstore sync A B`: two stores exchange what the other has not applied.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Bring two stores to the same samples, both ways.",
        discussion: """
            Each store keeps, beside its samples and in the same commit, the anchor of the \
            other's changes it applied last, so the next sync sends only what is new. An \
            encrypted store opens with the key of --key-file (the second with that of \
            --second-key-file when it has its own); a plain store opens without one.
            """)

    @Argument(help: "The first store's directory.")
    var first: String

    @Argument(help: "The second store's directory.")
    var second: String

    @OptionGroup var key: KeyFileOption

    @Option(
        name: .customLong("second-key-file"),
        help: ArgumentHelp(
            "The second store's key file, when its key is not --key-file's.", valueName: "path"))
    var secondKeyFile: String?

    func run() async throws {
        try await reportingErrors {
            let a = try Self.open(first, keyFile: key.path)
            let b = try Self.open(second, keyFile: secondKeyFile ?? key.path)
            for (from, to, fromName, toName) in [(a, b, first, second), (b, a, second, first)] {
                let name = "trendstore.sync." + (try from.changeAnchor().storeIdentifier)
                let saved = try to.externalAnchor(named: name).flatMap {
                    ChangeAnchor(String(decoding: $0, as: UTF8.self))
                }
                let changes: ChangeSet
                do {
                    changes = try from.changes(since: saved)
                } catch StoreError.Code.anchorExpired {
                    changes = try from.changes(since: nil)
                }
                let summary = try await to.apply(
                    changes, externalAnchor: Data(changes.anchor.description.utf8), named: name)
                print(Terminal.safe("\(fromName) → \(toName): \(SyncReport.describe(summary))"))
            }
            await a.close()
            await b.close()
        }
    }
}

extension SyncCommand {
    /// Opens the store at `path` with the key in `keyFile` when it is encrypted, and without
    /// one when it is plain (one key file serves a plain store and an encrypted one).
    static func open(_ path: String, keyFile: String?) throws -> TrendStore {
        let location = ["--store", path]
        guard let keyFile else { return try StoreLocation.parse(location).open() }
        do {
            return try StoreLocation.parse(location + ["--key-file", keyFile]).open()
        } catch StoreError.Code.notEncrypted {
            return try StoreLocation.parse(location).open(keyless: true)
        }
    }
}

/// One line saying what an apply changed.
enum SyncReport {
    static func describe(_ summary: ApplySummary) -> String {
        "\(summary.samplesWritten) samples written, \(summary.samplesRemoved) removed, \(summary.deletions) deletions, \(summary.priorityOrders) priority orders, \(summary.samplesIgnored) samples already here"
    }
}
