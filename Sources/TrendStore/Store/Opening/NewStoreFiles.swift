import Foundation
import LMDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What opening a store for writing does when its data file does not exist yet: it checks
/// that the file system has room first, makes the store in a private directory, and puts its
/// data file in place whole, so a data file without a store's settings is never a store
/// being made but a damaged one, and a creation that fails leaves nothing behind.
enum NewStoreFiles {
    /// The free bytes a new store needs before LMDB creates its files. LMDB writes its lock
    /// file through a memory map, so a disk that cannot hold the lock file's pages is a SIGBUS
    /// that kills the process, not an error it could report; the rest is room for the first
    /// commits, which fail cleanly when it runs out.
    static let minimumFreeBytes = 256 << 10

    /// The prefix of the private directories new stores are made in, inside the store's.
    static let stagingPrefix = ".creating-"

    /// Whether `directory` holds no data file yet.
    static func areMissing(in directory: URL) -> Bool {
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent("data.mdb").path)
    }

    /// Makes a new store's files in `directory` (and the directory) when it has no data file
    /// and `options` open it for writing, as ``create(in:options:)`` does; whether this call
    /// made them. A directory this call made is removed again when making the store fails.
    static func makeIfMissing(in directory: URL, options: StoreOptions) throws -> Bool {
        guard !options.readOnly, areMissing(in: directory) else { return false }
        let madeDirectory = !FileManager.default.fileExists(atPath: directory.path)
        try StoreEngine.createDirectory(directory)
        do {
            try checkRoom(in: directory)
            return try create(in: directory, options: options)
        } catch {
            if madeDirectory { try? FileManager.default.removeItem(at: directory) }
            throw error
        }
    }

    /// Makes a new store's data file in `directory`, which has none: its tables and
    /// settings (as `options` ask) are committed in a private directory inside it, then the
    /// file is linked into place at once. Returns `false` when another process put a data
    /// file there first: then that store is the one to open.
    ///
    /// - Throws: What making the tables and settings throws, or
    ///   ``StoreError/Code/storeUnavailable`` when the file cannot be put in place.
    static func create(in directory: URL, options: StoreOptions) throws -> Bool {
        ProcessOwnedDirectory.removeAbandoned(in: directory, prefix: stagingPrefix)
        let staging = directory.appendingPathComponent(
            ProcessOwnedDirectory.name(prefix: stagingPrefix))
        try StoreEngine.createDirectory(staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        var environmentOptions = Environment.Options()
        environmentOptions.mapSize = options.initialMapSize
        do {
            let environment = try Environment(path: staging.path, options: environmentOptions)
            defer { environment.close() }
            try StoreTables.create(in: environment)
            let meta = try MetaTable(in: environment)
            meta.stampCommits(of: environment)
            _ = try StoreSettings.load(
                environment: environment, meta: meta, options: options, path: directory.path,
                creating: true)
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
        let made = staging.appendingPathComponent("data.mdb").path
        let final = directory.appendingPathComponent("data.mdb").path
        guard link(made, final) == 0 else {
            if errno == EEXIST { return false }
            throw StoreError.storeUnavailable(
                path: directory.path,
                reason:
                    "its new data file cannot be put in place: \(String(cString: strerror(errno)))")
        }
        // The new name reaches the disk with the directory.
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
        return true
    }

    /// Checks that the file system of `directory` has ``minimumFreeBytes`` free.
    ///
    /// - Throws: ``StoreError/Code/storeUnavailable`` saying the disk is full.
    static func checkRoom(in directory: URL) throws(StoreError) {
        var status = statvfs()
        guard statvfs(directory.path, &status) == 0 else { return }
        let free = UInt64(status.f_bavail) &* UInt64(status.f_frsize)
        if free < UInt64(minimumFreeBytes) {
            throw .storeUnavailable(
                path: directory.path,
                reason:
                    "the disk is full (\(free) bytes free; a new store needs \(minimumFreeBytes)): nothing was created"
            )
        }
    }
}
