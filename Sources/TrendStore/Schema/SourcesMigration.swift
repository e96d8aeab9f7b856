import Foundation
import LMDB

/// Storage format 3 → 4: sources. Every sample a store of format 3 holds belongs to its
/// series' default source, whose blocks stay where they are (under the series' id), and
/// every rollup is the merged figure of a series of one source, so nothing is rewritten: the
/// `sources` database (created when the store is opened writable) starts empty and the
/// store records format 4. One transaction: from it on, releases that do not know sources
/// refuse the store, so no older writer can change a series of several sources without
/// merging.
enum SourcesMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0004-sources"

    /// Records format 4.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try context.meta.recordFormat(4, in: txn)
    }
}
