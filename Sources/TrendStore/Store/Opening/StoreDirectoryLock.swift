import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock (`flock`) on a store's directory: every process holds it shared from the
/// moment it opens the store until it closes it, and ``TrendStore/removeStoreIfEmpty(at:)``
/// holds it exclusively while it decides that the store holds nothing and removes its files.
///
/// LMDB's own locks cannot serve for this: they do not stop a second process from opening
/// the files, which it would go on writing after they were unlinked. Opening waits while the
/// directory is held exclusively; a directory removed meanwhile is made again.
final class StoreDirectoryLock: Sendable {
    private let descriptor: Int32

    /// The shared lock of `directory`, taken once no process holds it exclusively; `nil`
    /// when the directory cannot be locked (a file system without `flock`, a directory
    /// that may be searched but not read), where LMDB's own locks are all there is.
    ///
    /// - Parameter creating: Whether to make the directory again when a remover took it away.
    /// - Throws: ``StoreError/Code/storeUnavailable`` when the directory keeps
    ///   being removed.
    static func shared(_ directory: URL, creating: Bool) throws(StoreError) -> StoreDirectoryLock? {
        for _ in 0..<100 {
            if creating {
                try? FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            guard let lock = opening(directory.path) else { return nil }
            guard lock.take(LOCK_SH) else { return nil }
            if lock.isStill(at: directory.path) { return lock }
        }
        throw .storeUnavailable(
            path: directory.path, reason: "the directory keeps being removed and made again")
    }

    /// The exclusive lock of `directory`, or `nil` when another process (or this one) has
    /// the store open or the directory cannot be locked.
    static func exclusive(_ directory: URL) -> StoreDirectoryLock? {
        guard let lock = opening(directory.path), lock.take(LOCK_EX | LOCK_NB),
            lock.isStill(at: directory.path)
        else { return nil }
        return lock
    }

    /// Opens the directory at `path`, or `nil` when it cannot be opened.
    private static func opening(_ path: String) -> StoreDirectoryLock? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return descriptor < 0 ? nil : StoreDirectoryLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Takes the lock with `operation`, retrying when a signal interrupts the wait.
    private func take(_ operation: Int32) -> Bool {
        while flock(descriptor, operation) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// Whether the locked directory is still the one at `path` (not removed meanwhile).
    private func isStill(at path: String) -> Bool {
        var locked = stat()
        var current = stat()
        guard fstat(descriptor, &locked) == 0, stat(path, &current) == 0 else { return false }
        return locked.st_dev == current.st_dev && locked.st_ino == current.st_ino
    }

    deinit { close(descriptor) }
}
