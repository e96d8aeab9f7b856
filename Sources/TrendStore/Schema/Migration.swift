import Foundation
import LMDB

/// One step of the store's schema history, applied once, in one write transaction.
struct Migration: Sendable {
    /// A stable, sortable name recorded in `meta` when the step has run.
    let identifier: String
    /// Changes the store; runs inside the transaction that records it.
    let apply: @Sendable (StoreEngine, borrowing WriteTransaction, Date) throws -> Void
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
        _ engine: StoreEngine, in txn: borrowing T
    ) throws -> [String] {
        guard let bytes = try txn.value(forKey: appliedKey, in: engine.meta) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Applies every migration not yet recorded.
    static func run(_ engine: StoreEngine) throws {
        for migration in all {
            try engine.write { txn, _ in
                var done = try applied(engine, in: txn)
                guard !done.contains(migration.identifier) else { return }
                try migration.apply(engine, txn, engine.clock())
                done.append(migration.identifier)
                try txn.put(
                    Array(done.joined(separator: "\n").utf8), forKey: appliedKey, in: engine.meta)
            }
        }
    }
}
