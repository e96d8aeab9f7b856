#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX file calls the environment makes outside LMDB, where ``Environment``'s own
/// `open` and `close` would hide them.
enum FileCalls {
    /// Creates `path`, which must not exist, for writing with `mode`; the descriptor or -1.
    static func createNew(_ path: String, mode: mode_t) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    }

    /// Opens `path` for reading; the descriptor or -1.
    static func openForReading(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_CLOEXEC)
    }

    static func closeFile(_ descriptor: Int32) { _ = close(descriptor) }
}
