import Foundation
import LMDB
import Synchronization

/// The LMDB environments open in this process, one per store directory, shared by every
/// ``TrendStore`` opened on it: LMDB forbids opening one file twice in a process.
///
/// An environment is closed when the last store using it closes or goes away; with it goes
/// this process's shared ``StoreDirectoryLock`` of the directory.
enum EnvironmentRegistry {
    private struct Entry {
        let environment: Environment
        var directoryLock: StoreDirectoryLock?
        /// The commit signal of every store of this process on the directory.
        let commits = CommitSignal()
        var users: Int
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// An environment handed out by
    /// ``acquire(directory:options:heldLock:requiringDataFile:)``, with the commit signal every
    /// store of this process on its directory shares, so a write through one handle wakes the
    /// observers of all.
    struct Shared {
        let environment: Environment
        let commits: CommitSignal
    }

    /// The registry's key for `directory`.
    private static func key(_ directory: URL) -> String {
        directory.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The registry's key of the entry holding `environment`, if any.
    private static func key(of environment: Environment, in entries: [String: Entry]) -> String? {
        entries.first(where: { $0.value.environment === environment })?.key
    }

    /// Whether a store on `directory` is open in this process.
    static func isOpen(_ directory: URL) -> Bool {
        entries.withLock { $0[key(directory)] != nil }
    }

    /// What ``acquire(directory:options:heldLock:requiringDataFile:)`` throws when the store's
    /// data file was removed before it took the directory's lock: open it afresh.
    struct DataFileRemoved: Error {}

    /// The environment of `directory`: the one already open in this process, or a new one
    /// opened under the directory's shared lock (or under `heldLock`, a lock the caller holds).
    /// With `requiringDataFile`, a data file missing once the lock is taken is not made
    /// (LMDB would make an empty one) but reported.
    ///
    /// - Throws: ``StoreError/Code/storeUnavailable`` when the directory is open
    ///   read-only here and `options` asks to write; ``DataFileRemoved``; `LMDBError` when it
    ///   cannot be opened (the façade turns it into ``StoreError/Code/storage``).
    static func acquire(
        directory: URL, options: Environment.Options, heldLock: StoreDirectoryLock? = nil,
        requiringDataFile: Bool = false
    ) throws -> Shared {
        let key = key(directory)
        if let shared = try reuse(key, directory: directory, options: options) {
            return shared
        }
        // Waited for outside the registry's lock: a remover in this process needs it.
        let directoryLock =
            try heldLock ?? StoreDirectoryLock.shared(directory, creating: !options.readOnly)
        return try entries.withLock { entries in
            if let shared = try reuse(key, in: &entries, directory: directory, options: options) {
                return shared
            }
            if requiringDataFile && NewStoreFiles.areMissing(in: directory) {
                throw DataFileRemoved()
            }
            let entry = Entry(
                environment: try Environment(path: directory.path, options: options),
                directoryLock: directoryLock, users: 1)
            entries[key] = entry
            return Shared(environment: entry.environment, commits: entry.commits)
        }
    }

    /// The environment open under `key`, with one more user, or `nil`.
    private static func reuse(_ key: String, directory: URL, options: Environment.Options) throws
        -> Shared?
    {
        try entries.withLock { entries in
            try reuse(key, in: &entries, directory: directory, options: options)
        }
    }

    private static func reuse(
        _ key: String, in entries: inout [String: Entry], directory: URL,
        options: Environment.Options
    ) throws -> Shared? {
        guard var entry = entries[key] else { return nil }
        if entry.environment.options.readOnly && !options.readOnly {
            throw StoreError.storeUnavailable(
                path: directory.path,
                reason:
                    "is open read-only in this process; close that store before opening it for writing"
            )
        }
        entry.users += 1
        entries[key] = entry
        return Shared(environment: entry.environment, commits: entry.commits)
    }

    /// Gives back an environment from
    /// ``acquire(directory:options:heldLock:requiringDataFile:)``; the last user closes it and
    /// gives up the directory's lock.
    static func release(_ environment: Environment) {
        let last: Entry? = entries.withLock { entries in
            guard let key = key(of: environment, in: entries),
                var entry = entries[key]
            else { return nil }
            entry.users -= 1
            if entry.users > 0 {
                entries[key] = entry
                return nil
            }
            entries[key] = nil
            return entry
        }
        // Outside the registry's lock: closing waits for transactions of other threads.
        if let last {
            last.environment.close()
            withExtendedLifetime(last.directoryLock) {}
        }
    }

    /// Suspends `environment` for every store of this process on its directory: waits for
    /// their transactions, closes LMDB's files and gives up the directory's shared lock, so
    /// the process holds no lock on the store.
    static func suspend(_ environment: Environment) {
        // Outside the registry's lock: suspending waits for transactions of other threads.
        environment.suspend()
        let lock: StoreDirectoryLock?? = entries.withLock { entries in
            guard let key = key(of: environment, in: entries)
            else { return nil }
            defer { entries[key]?.directoryLock = nil }
            return entries[key]?.directoryLock
        }
        withExtendedLifetime(lock) {}
    }

    /// Takes the directory's shared lock again and opens the files ``suspend(_:)`` closed.
    ///
    /// - Throws: ``StoreError/Code/storeUnavailable`` when the store was removed or
    ///   replaced meanwhile (it stays suspended); `LMDBError` when its files cannot be opened.
    static func resume(_ environment: Environment, directory: URL) throws {
        guard environment.isSuspended else { return }
        let directoryLock = try StoreDirectoryLock.shared(directory, creating: false)
        do {
            try environment.resume()
        } catch let error as LMDBError where error.code == .invalid {
            throw StoreError.storeUnavailable(
                path: directory.path,
                reason:
                    "its data file was removed or replaced while it was suspended; open it again")
        }
        entries.withLock { entries in
            guard let key = key(of: environment, in: entries)
            else { return }
            entries[key]?.directoryLock = directoryLock
        }
    }
}
