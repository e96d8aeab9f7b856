import Foundation
import LMDB

extension TrendStore {
    /// Removes the store in `directory` when it holds nothing (no series, cached aggregates
    /// or typed-cache entries) and no process has it open; returns whether it removed it.
    ///
    /// Tools call it to leave no empty store behind after a first import that failed. The
    /// decision and the removal happen under the directory's exclusive lock, which every
    /// process that opens the store holds shared: a process that opens the store meanwhile
    /// waits, then creates a new one, and a store another process has written is never removed.
    /// The directory goes too when nothing else is left in it.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read to tell whether it holds anything.
    package static func removeStoreIfEmpty(at directory: URL) throws -> Bool {
        let dataFile = directory.appendingPathComponent("data.mdb")
        guard !EnvironmentRegistry.isOpen(directory),
            FileManager.default.fileExists(atPath: dataFile.path),
            let lock = StoreDirectoryLock.exclusive(directory)
        else { return false }
        guard try holdsNothing(directory, lock: lock) else { return false }
        let files = FileManager.default
        for file in [dataFile, directory.appendingPathComponent("lock.mdb")] {
            try? files.removeItem(at: file)
        }
        if (try? files.contentsOfDirectory(atPath: directory.path).isEmpty) ?? false {
            try? files.removeItem(at: directory)
        }
        return true
    }

    /// Whether the store in `directory`, whose exclusive lock the caller holds, has no
    /// series, cached aggregates or typed-cache entries (a database never created counts as empty).
    private static func holdsNothing(_ directory: URL, lock: StoreDirectoryLock) throws -> Bool {
        var options = Environment.Options()
        options.readOnly = true
        let environment: Environment
        do {
            environment = try EnvironmentRegistry.acquire(
                directory: directory, options: options, heldLock: lock
            ).environment
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
        defer { EnvironmentRegistry.release(environment) }
        do {
            return try StoreTables.holdNothing(in: environment)
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
    }
}
