import Foundation

/// A child process started with `posix_spawn`, for tests that run the package's executables.
///
/// Not Foundation's `Process`: on Linux its start copies the names in `/proc/self/fd` while
/// other threads open and close descriptors, and in a parallel test run that read over the
/// end of a buffer killed the whole test process by SIGSEGV now and then
/// (swift-corelibs-foundation PR #5472). The child gets the descriptors it is given as its
/// standard input, output and error, and no other (`posix_spawn_file_actions_addclosefrom_np`),
/// so it never holds the write end of another test's pipe open.
public final class ChildProcess: @unchecked Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    private let state = NSLock()
    private var status: Int32?
    /// The pipe the child writes to, kept as long as the child is, as Foundation's `Process`
    /// keeps its standard output: a caller that drops its end must not end the child by SIGPIPE.
    var outputPipe: Pipe?

    /// Starts `executable` with `arguments` (and `environment` added to this process's), its
    /// standard input, output and error on the given handles (`nil`: `/dev/null`).
    public init(
        _ executable: URL, arguments: [String], environment: [String: String] = [:],
        input: FileHandle? = nil, output: FileHandle? = nil, error: FileHandle? = nil
    ) throws {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (handle, target) in [(input, Int32(0)), (output, 1), (error, 2)] {
            posix_spawn_file_actions_adddup2(&actions, handle?.fileDescriptor ?? null, target)
        }
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        // As a shell starts a command: no signal blocked, every one at its default action.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let words = [executable.path] + arguments
        let environmentWords = merged.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let failed = try Self.withCStrings(words) { argv in
            try Self.withCStrings(environmentWords) { envp in
                posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
            }
        }
        guard failed == 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(failed))
        }
        processIdentifier = child
    }

    /// Waits for the child to end.
    public func waitUntilExit() {
        state.lock()
        defer { state.unlock() }
        guard status == nil else { return }
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) == -1 && errno == EINTR {}
        status = raw
    }

    /// Whether the child has not ended (reaping it when it has).
    public var isRunning: Bool {
        state.lock()
        defer { state.unlock() }
        guard status == nil else { return false }
        var raw: Int32 = 0
        guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
        status = raw
        return false
    }

    /// The exit status of a child that exited, or the number of the signal that ended it (as
    /// Foundation's `Process` reports them); waits for the child first.
    public var terminationStatus: Int32 {
        waitUntilExit()
        let raw = state.withLock { status ?? 0 }
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : raw & 0x7F
    }

    /// Whether the child was ended by a signal; waits for it first.
    public var endedBySignal: Bool {
        waitUntilExit()
        let raw = state.withLock { status ?? 0 }
        return raw & 0x7F != 0
    }

    /// Sends SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    deinit {
        if isRunning {
            kill(processIdentifier, SIGKILL)
            waitUntilExit()
        }
    }

    /// The C signature of `posix_spawn_file_actions_addclosefrom_np`.
    private typealias CloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's
    /// Glibc module does not import.
    private static let closeFrom: CloseFrom? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<R>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> R
    ) throws -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return try body(pointers)
    }
}
