import Foundation
import LMDB
import Synchronization

/// The LMDB environments open in this process, one per store directory, shared by every
/// ``TrendStore`` opened on it: LMDB forbids opening one file twice in a process.
///
/// An environment is closed when the last store using it closes or goes away.
enum EnvironmentRegistry {
    private struct Entry {
        let environment: Environment
        var users: Int
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// The environment of `directory`: the one already open in this process, or a new one.
    ///
    /// - Throws: ``StoreError/storeUnavailable(path:reason:)`` when the directory is open
    ///   read-only here and `options` asks to write; `LMDBError` when it cannot be opened
    ///   (the façade turns it into ``StoreError/storage(path:operation:code:reason:)``).
    static func acquire(directory: URL, options: Environment.Options) throws -> Environment {
        let key = directory.standardizedFileURL.resolvingSymlinksInPath().path
        return try entries.withLock { entries in
            if var entry = entries[key] {
                if entry.environment.options.readOnly && !options.readOnly {
                    throw StoreError.storeUnavailable(
                        path: directory.path,
                        reason:
                            "is open read-only in this process; close that store before opening it for writing"
                    )
                }
                entry.users += 1
                entries[key] = entry
                return entry.environment
            }
            let environment = try Environment(path: directory.path, options: options)
            entries[key] = Entry(environment: environment, users: 1)
            return environment
        }
    }

    /// Gives back an environment from ``acquire(directory:options:)``; the last user closes it.
    static func release(_ environment: Environment) {
        let last: Bool = entries.withLock { entries in
            guard let key = entries.first(where: { $0.value.environment === environment })?.key,
                var entry = entries[key]
            else { return false }
            entry.users -= 1
            if entry.users > 0 {
                entries[key] = entry
                return false
            }
            entries[key] = nil
            return true
        }
        // Outside the registry's lock: closing waits for transactions of other threads.
        if last { environment.close() }
    }
}
