import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What opening a store for writing does when its files do not exist yet: it checks that
/// the file system has room for them first, and a creation that fails leaves nothing behind.
enum NewStoreFiles {
    /// The free bytes a new store needs before LMDB creates its files. LMDB writes its lock
    /// file through a memory map, so a disk that cannot hold the lock file's pages is a SIGBUS
    /// that kills the process, not an error it could report; the rest is room for the first
    /// commits, which fail cleanly when it runs out.
    static let minimumFreeBytes = 256 << 10

    /// Whether `directory` holds no store files yet (neither `data.mdb` nor `lock.mdb`).
    static func areMissing(in directory: URL) -> Bool {
        ["data.mdb", "lock.mdb"].allSatisfy {
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
    }

    /// Checks that the file system of `directory` has ``minimumFreeBytes`` free.
    ///
    /// - Throws: ``StoreError/storeUnavailable(path:reason:)`` saying the disk is full.
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
