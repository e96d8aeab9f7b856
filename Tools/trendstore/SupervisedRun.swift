import CParentDeath
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command that opens a store in a child process and reports a child killed by a
/// fault signal as a damaged store, in one line with exit status 3, instead of dying with it.
///
/// LMDB has no page checksums, so reading a damaged B-tree page can fault (SIGBUS, SIGSEGV)
/// or fail LMDB's own assertions (SIGABRT) inside LMDB, where no error can be thrown, in a
/// query as in a write. Every command that opens a store runs so: the parent (this process,
/// once the arguments parse) starts the same executable with the same arguments and waits.
/// The child knows itself by an environment variable naming the parent, and dies by
/// SIGKILL when the parent ends (``adoptParent()``), so killing the command's process, as a
/// kill trial or a task manager does, kills the command. The child is spawned with
/// `posix_spawn`, not Foundation's `Process`, whose start reads `/proc/self/fd` unsafely in
/// this toolchain's Foundation.
enum SupervisedRun {
    /// The environment variable that marks the child; its value is the parent's process id.
    private static let parentVariable = "TRENDSTORE_SUPERVISOR_PID"
    /// The signals reading a damaged page raises: bus error, segmentation fault, LMDB's
    /// failed assertions (abort), an illegal instruction, an arithmetic fault.
    private static let faults: Set<Int32> = [SIGBUS, SIGSEGV, SIGABRT, SIGILL, SIGFPE]

    /// In the child: arms its death with the parent and returns `true`; in any other process
    /// `false`. A child whose parent has already ended ends at once, as if killed with it.
    static func adoptParent() -> Bool {
        guard let value = getenv(parentVariable), let parent = pid_t(String(cString: value))
        else { return false }
        // A command this one starts in turn is supervised by itself, not by this parent.
        unsetenv(parentVariable)
        if trendstore_die_with_parent(parent) == 1 { kill(getpid(), SIGKILL) }
        return true
    }

    /// Runs the command in a child to its end; the child's exit status becomes this
    /// process's, and a fault that killed it one line naming `stores` and status 3.
    static func run(stores: [URL]) -> Never {
        let child: pid_t
        do {
            child = try spawnSelf()
        } catch {
            FileHandle.standardError.write(
                Data("trendstore: cannot start the command: \(error)\n".utf8))
            exit(1)
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else {
                FileHandle.standardError.write(
                    Data(
                        "trendstore: lost the command's process: \(String(cString: strerror(errno)))\n"
                            .utf8))
                exit(1)
            }
        }
        let signal = status & 0x7f
        guard signal != 0 else { exit((status >> 8) & 0xff) }
        guard faults.contains(signal) else {
            // Not the store's doing (a closed pipe, an interrupt, a kill): end the same way.
            restoreDefaultAction(signal)
            raise(signal)
            exit(128 + signal)
        }
        let names = stores.map(\.path).joined(separator: " and ")
        FileHandle.standardError.write(
            Data(
                ("trendstore: store \(names) is damaged: the command was killed by signal "
                    + "\(signal) (\(String(cString: strsignal(signal)))) using it, as a damaged "
                    + "page of its file does; run trendstore verify, restore a backup, or export "
                    + "the series that still read and import them into a new store\n").utf8))
        exit(3)
    }

    /// Starts this executable again with this process's arguments and environment, the
    /// child marked by ``parentVariable``; its standard streams are this process's.
    private static func spawnSelf() throws -> pid_t {
        let executable =
            Bundle.main.executablePath ?? CommandLine.arguments.first ?? "trendstore"
        var environment = ProcessInfo.processInfo.environment
        environment[parentVariable] = String(getpid())
        // The runtime's crash report would be many lines: the parent says it in one.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let arguments = [executable] + CommandLine.arguments.dropFirst()
        let variables = environment.map { "\($0.key)=\($0.value)" }
        return try withCStrings(arguments) { argv in
            try withCStrings(variables) { envp in
                var child: pid_t = 0
                let failed = posix_spawn(&child, executable, nil, nil, argv, envp)
                guard failed == 0 else {
                    throw CommandFailure(String(cString: strerror(failed)))
                }
                return child
            }
        }
    }
}

/// Calls `body` with `strings` as a null-terminated array of C strings, freed after it.
private func withCStrings<R>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> R
) rethrows -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return try body(pointers)
}

/// Gives `signal` its default action again and unblocks it (a mask inherited from whoever
/// started this process may block it), so raising it ends this process as it ended the child.
private func restoreDefaultAction(_ signal: Int32) {
    #if canImport(Glibc)
        _ = Glibc.signal(signal, SIG_DFL)
    #elseif canImport(Darwin)
        _ = Darwin.signal(signal, SIG_DFL)
    #endif
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
}
