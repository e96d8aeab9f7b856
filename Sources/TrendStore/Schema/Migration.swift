import Foundation
import LMDB

/// What a migration may read and change: the layers below the schema.
struct MigrationContext: Sendable {
    let environment: Environment
    /// Where the record of applied migrations is kept.
    let meta: MetaTable
    /// Every table, for steps that rewrite what they hold as stored.
    let tables: StoreTables
    let storage: SampleStorage
    let caches: AggregateCache
    /// The store's recorded default zone.
    let defaultZone: TimeZone
    /// The store's clock.
    let clock: @Sendable () -> Date

    var queries: Queries { Queries(storage: storage) }
}

/// Whether a migration step has more batches to run.
enum MigrationProgress: Sendable {
    case moreToDo
    case finished
}

/// One step of the store's schema history, applied once, in one or more write transactions.
struct Migration: Sendable {
    /// A stable, sortable name recorded in `meta` when the step has run.
    let identifier: String
    /// Changes the store by one batch; the batch that returns `.finished` commits with
    /// the record that the step ran. Every batch leaves a store that answers correctly.
    let apply:
        @Sendable (MigrationContext, borrowing WriteTransaction, Date) throws -> MigrationProgress

    /// A step done in one transaction.
    init(
        identifier: String,
        apply:
            @escaping @Sendable (MigrationContext, borrowing WriteTransaction, Date) throws ->
            Void
    ) {
        self.init(identifier: identifier) { context, txn, now in
            try apply(context, txn, now)
            return .finished
        }
    }

    /// A step done in batches, each its own transaction.
    init(
        identifier: String,
        batches:
            @escaping @Sendable (MigrationContext, borrowing WriteTransaction, Date) throws ->
            MigrationProgress
    ) {
        self.identifier = identifier
        apply = batches
    }
}

/// Runs the migrations a store has not had yet, in order, at open.
///
/// Each migration's last batch and the record that it ran commit together, so a crash
/// leaves the old state, a state between batches (which the next open continues from),
/// or the new one, and opening again never runs a step twice.
enum Migrator {
    /// Every migration, oldest first.
    static let all: [Migration] = [
        Migration(
            identifier: "0001-v1-average-to-v2-weekday-averages", apply: V1AverageMigration.apply),
        Migration(
            identifier: BlockLayoutMigration.identifier, batches: BlockLayoutMigration.apply),
        Migration(
            identifier: CommitStampMigration.identifier, apply: CommitStampMigration.apply),
        Migration(identifier: SourcesMigration.identifier, apply: SourcesMigration.apply),
        Migration(identifier: ChangeLogMigration.identifier, apply: ChangeLogMigration.apply),
        Migration(identifier: RowRebuildMigration.identifier, apply: RowRebuildMigration.apply),
        Migration(identifier: StoreSealMigration.identifier, batches: StoreSealMigration.apply),
        Migration(identifier: SampleIDMigration.identifier, apply: SampleIDMigration.apply),
        Migration(
            identifier: WholeDayVersionsMigration.identifier,
            apply: WholeDayVersionsMigration.apply),
    ]

    /// The identifiers of the migrations recorded in `meta`.
    static func applied<T: ReadableTransaction & ~Copyable>(
        _ context: MigrationContext, in txn: borrowing T
    ) throws -> [String] {
        try context.meta.appliedMigrations(in: txn)
    }

    /// Applies every migration not yet recorded, each batch in its own transaction; in a
    /// store this open created (`newStore`) every step in one transaction, as nothing needs
    /// batches (a step another process recorded meanwhile is skipped either way).
    static func run(_ context: MigrationContext, newStore: Bool) throws {
        if newStore {
            try Transactions.write(in: context.environment) { txn in
                for migration in all {
                    while try step(migration, context, txn) == .moreToDo {}
                }
            }
            return
        }
        for migration in all {
            var progress = MigrationProgress.moreToDo
            while progress == .moreToDo {
                progress = try Transactions.write(in: context.environment) { txn in
                    try step(migration, context, txn)
                }
            }
        }
    }

    /// Applies one batch of `migration` unless it is recorded, and records it when it finishes.
    private static func step(
        _ migration: Migration, _ context: MigrationContext, _ txn: borrowing WriteTransaction
    ) throws -> MigrationProgress {
        // Another process may have bound the store's values to it (format 7) since this
        // handle read its seal: the list of migrations is then sealed with the new id.
        try context.tables.loadStoreSeal(in: txn)
        var done = try applied(context, in: txn)
        guard !done.contains(migration.identifier) else { return .finished }
        let progress = try migration.apply(context, txn, context.clock())
        if progress == .finished {
            done.append(migration.identifier)
            try context.meta.setAppliedMigrations(done, in: txn)
        }
        return progress
    }
}
