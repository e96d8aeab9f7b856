/// What a commit guarantees once it returns, against a power loss or an operating-system
/// crash. A process that crashes or is killed loses nothing committed in any mode: the
/// operating system still writes what it was given.
///
/// ```swift
/// var options = StoreOptions()
/// options.durability = .normal  // one flush per commit
/// ```
public enum Durability: String, Sendable, Codable, CaseIterable {
    /// Every commit survives a power loss: two flushes per commit (LMDB's data pages, then
    /// its meta page). The default.
    case full
    /// One flush per commit (LMDB's `MDB_NOMETASYNC`): a power loss may undo the last
    /// commit, never more, and never the store's consistency (the store opens at the commit
    /// before it). For apps writing samples as they arrive.
    case normal
    /// No flush (LMDB's `MDB_NOSYNC`): the operating system writes the pages back when it
    /// chooses, so a power loss may undo any number of the last commits. The store stays
    /// consistent only on a file system that writes pages in the order they were written;
    /// on others a power loss can leave it damaged (``TrendStore/verify()-1rh8s`` tells).
    /// For bulk imports that can be run again from their files.
    case none
}
