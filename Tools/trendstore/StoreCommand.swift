import Foundation

/// A command that opens a store, and so runs supervised (``SupervisedRun``): a fault in
/// LMDB on a damaged page is reported as damage, exit status 3.
protocol StoreCommand {
    /// The store directories the command opens, named when a fault ends it; empty when this
    /// run opens none (it then runs unsupervised).
    var storeDirectories: [URL] { get }
}

extension ImportCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension GenerateCommand: StoreCommand {
    var storeDirectories: [URL] { storePath.map { [URL(fileURLWithPath: $0)] } ?? [] }
}

extension TodayCommand: StoreCommand {
    var storeDirectories: [URL] { [context.location.directory] }
}

extension WeekdayAverageCommand: StoreCommand {
    var storeDirectories: [URL] { [context.location.directory] }
}

extension HeatmapCommand: StoreCommand {
    var storeDirectories: [URL] { [context.location.directory] }
}

extension StatisticsCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension InfoCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension VerifyCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension BackupCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension PruneCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension ExportCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension CacheListCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension CacheRefreshCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension CacheClearCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension SourcesListCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension SourcesPriorityCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension ChangesCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension ApplyCommand: StoreCommand {
    var storeDirectories: [URL] { [location.directory] }
}

extension SyncCommand: StoreCommand {
    var storeDirectories: [URL] { [URL(fileURLWithPath: first), URL(fileURLWithPath: second)] }
}
