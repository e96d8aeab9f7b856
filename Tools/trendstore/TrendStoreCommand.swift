import ArgumentParser

/// The `trendstore` command: import, generate, query and check TrendStore stores.
@main
struct TrendStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trendstore",
        abstract:
            "Import health and fitness samples into a TrendStore store and query its aggregates.",
        subcommands: [
            ImportCommand.self, GenerateCommand.self, QueryCommand.self, InfoCommand.self,
            VerifyCommand.self,
            CacheCommand.self,
        ])
}
