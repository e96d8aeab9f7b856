import CLMDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a process does when LMDB stops on one of its own assertions.
///
/// LMDB checks some of its invariants with assertions (a cursor that reaches a page that is no
/// leaf, say, on a damaged file) and then aborts the process: no error can be returned from
/// there. A host app keeps that default. A command-line tool can ask, before it opens any
/// environment, to print one line and exit with a status of its own instead, so a damaged
/// store ends the command with an error rather than a signal.
public enum AssertionExit {
    private static let configuration = Mutex<(status: Int32, prefix: String)?>(nil)

    /// Makes LMDB's assertion failures in every environment of this process print `prefix`,
    /// then what failed, as one line on standard error, and exit with `status` (no cleanup
    /// runs: the process is in an undefined state).
    public static func exit(withStatus status: Int32, prefix: String) {
        configuration.withLock { $0 = (status, prefix) }
    }

    /// The function every environment gives LMDB (`mdb_env_set_assert`): it returns (and LMDB
    /// aborts) unless ``exit(withStatus:prefix:)`` was called.
    static let handler: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void = {
        _, message in
        guard let (status, prefix) = AssertionExit.configuration.withLock({ $0 }) else { return }
        let what = message.map { String(cString: $0) } ?? "an assertion"
        let line = Array("\(prefix)LMDB stopped on a damaged page (\(what))\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        _exit(status)
    }
}
