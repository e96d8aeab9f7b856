import Foundation
import LMDB

/// Storage format 8 → 9: a day's record of sample versions may name no identity (layout 4,
/// `DayVersions+WholeDay.swift`), its samples then being the day's in the blocks, which a
/// release before it would read as damage. Older stores hold no such record and keep theirs
/// as they are (read as before), so the step only records format 9, in one transaction, and
/// from then on those releases refuse the store.
enum WholeDayVersionsMigration {
    /// The migration's identifier in `meta`.
    static let identifier = "0009-whole-day-versions"

    /// Records format 9.
    static func apply(_ context: MigrationContext, _ txn: borrowing WriteTransaction, _: Date)
        throws
    {
        try context.meta.recordFormat(StorageFormat.wholeDayVersions, in: txn)
    }
}
