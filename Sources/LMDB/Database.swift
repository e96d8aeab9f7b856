import CLMDB

/// A named database inside an ``Environment``.
///
/// You get one from ``Environment/openDatabase(named:)``. The handle stays valid for
/// the life of the environment and can be used from any transaction and thread.
public struct Database: Sendable, Hashable, CustomStringConvertible {
    let handle: MDB_dbi
    /// The database's name within its environment.
    public let name: String

    init(handle: MDB_dbi, name: String) {
        self.handle = handle
        self.name = name
    }

    /// The database's name, quoted.
    public var description: String { "'\(name)'" }
}
