import Foundation
import LMDB

/// What a migration may read and change: the layers below the schema.
struct MigrationContext: Sendable {
    let environment: Environment
    /// Where the record of applied migrations is kept.
    let meta: Database
    let storage: SampleStorage
    let caches: AggregateCache
    /// The store's recorded default zone.
    let defaultZone: TimeZone
    /// The store's clock.
    let clock: @Sendable () -> Date

    var queries: Queries { Queries(storage: storage) }
}

/// One step of the store's schema history, applied once, in one write transaction.
struct Migration: Sendable {
    /// A stable, sortable name recorded in `meta` when the step has run.
    let identifier: String
    /// Changes the store; runs inside the transaction that records it.
    let apply: @Sendable (MigrationContext, borrowing WriteTransaction, Date) throws -> Void
}

/// Runs the migrations a store has not had yet, in order, at open.
///
/// Each migration and the record that it ran commit together, so a crash leaves
/// either the old state or the new one, and opening again never runs a step twice.
enum Migrator {
    /// Every migration, oldest first.
    static let all: [Migration] = [
        Migration(
            identifier: "0001-v1-average-to-v2-weekday-averages", apply: V1AverageMigration.apply),
        Migration(identifier: "0002-cache-keys-carry-zone", apply: ZonedCacheKeysMigration.apply),
    ]

    private static let appliedKey = Array("migrations".utf8)

    /// The identifiers of the migrations recorded in `meta`.
    static func applied<T: ReadableTransaction & ~Copyable>(
        _ context: MigrationContext, in txn: borrowing T
    ) throws -> [String] {
        guard let bytes = try txn.value(forKey: appliedKey, in: context.meta) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Applies every migration not yet recorded.
    static func run(_ context: MigrationContext) throws {
        for migration in all {
            try context.environment.write { txn in
                var done = try applied(context, in: txn)
                guard !done.contains(migration.identifier) else { return }
                try migration.apply(context, txn, context.clock())
                done.append(migration.identifier)
                try txn.put(
                    Array(done.joined(separator: "\n").utf8), forKey: appliedKey, in: context.meta)
            }
        }
    }
}
