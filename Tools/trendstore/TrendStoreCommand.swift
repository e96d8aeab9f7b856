import ArgumentParser
import CAllocatorTuning
import Foundation
import TrendStore

/// The `trendstore` command: import, generate, query and check TrendStore stores.
///
/// Exit status: 0 success, 1 an error (one line on standard error), 2 a usage error (one
/// line and a hint), 3 `verify` found damage, or a damaged page stopped LMDB (an assertion,
/// or a fault the supervising parent reports: ``SupervisedRun``).
@main
struct TrendStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trendstore",
        abstract:
            "Import health and fitness samples into a TrendStore store and query its aggregates.",
        subcommands: [
            ImportCommand.self, GenerateCommand.self, QueryCommand.self, InfoCommand.self,
            VerifyCommand.self, BackupCommand.self, PruneCommand.self, ExportCommand.self,
            CacheCommand.self, SourcesCommand.self, ChangesCommand.self, ApplyCommand.self,
            SyncCommand.self,
        ] + encryptionCommands)

    #if Encryption
        private static let encryptionCommands: [any ParsableCommand.Type] = [KeygenCommand.self]
    #else
        private static let encryptionCommands: [any ParsableCommand.Type] = []
    #endif

    /// The exit status of a usage error.
    static let usageStatus: Int32 = 2
    /// The exit status of damage: what `verify` found, or a page LMDB stopped on.
    static let damageStatus: Int32 = 3

    /// Parses and runs the command, printing a usage error as one line and a hint
    /// (not the whole usage text) with status 2.
    static func main() async {
        // A quarter of an import's time was page faults of per-megabyte buffers that glibc
        // handed back to the kernel when freed (see the header).
        trendstore_keep_freed_memory()
        // A damaged page that stops LMDB on an assertion ends the command like other damage.
        TrendStore.exitOnStorageAssertion(
            status: damageStatus, prefix: "trendstore: the store's file is damaged: ")
        let isSupervisedChild = SupervisedRun.adoptParent()
        do {
            var command = try parseAsRoot()
            // A fault on a damaged page is reported by a parent that outlives it.
            let stores = storeDirectories(of: command)
            if !isSupervisedChild, !stores.isEmpty { SupervisedRun.run(stores: stores) }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            let words = CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") }.prefix(2)
            let command = (["trendstore"] + words.filter(knownCommandNames.contains)).joined(
                separator: " ")
            FileHandle.standardError.write(
                Data(
                    "trendstore: \(message(for: error))\nhint: see '\(command) --help'\n".utf8))
            Foundation.exit(usageStatus)
        }
    }

    /// The stores `command` opens (none for a command that opens no store).
    private static func storeDirectories(of command: any ParsableCommand) -> [URL] {
        (command as? any StoreCommand)?.storeDirectories ?? []
    }

    private static let knownCommandNames: Set<String> = [
        "import", "generate", "query", "info", "verify", "cache", "today", "weekday-average",
        "heatmap", "list", "refresh", "clear", "backup", "prune", "export", "keygen", "sources",
        "priority",
    ]
}
