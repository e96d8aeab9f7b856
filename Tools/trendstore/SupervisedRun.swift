import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs this very command again in a child process and reports a child killed by a signal as
/// an unreadable store, in one line with exit status 3, instead of dying with it.
///
/// LMDB has no page checksums, so reading a damaged B-tree page can fault (SIGBUS, SIGSEGV)
/// or fail LMDB's own assertions (SIGABRT) inside LMDB, where no error can be thrown. The
/// commands that read a whole store (`verify`, `export`) run so; the child gets the hidden
/// flag `--in-this-process`.
enum SupervisedRun {
    /// The flag the child runs with.
    static let childFlag = "--in-this-process"
    /// The signals reading a damaged page raises: bus error, segmentation fault, LMDB's
    /// failed assertions (abort), an illegal instruction, an arithmetic fault.
    private static let faults: Set<Int32> = [SIGBUS, SIGSEGV, SIGABRT, SIGILL, SIGFPE]

    /// Runs the child to its end; its exit status becomes this process's.
    static func run(store: URL) throws -> Never {
        let child = Process()
        child.executableURL =
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = Array(CommandLine.arguments.dropFirst()) + [childFlag]
        var environment = ProcessInfo.processInfo.environment
        // The runtime's crash report would be many lines: the parent says it in one.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        child.environment = environment
        do {
            try child.run()
        } catch {
            FileHandle.standardError.write(
                Data("trendstore: cannot start the command: \(error)\n".utf8))
            exit(1)
        }
        child.waitUntilExit()
        guard child.terminationReason == .uncaughtSignal else { exit(child.terminationStatus) }
        let signal = child.terminationStatus
        guard faults.contains(signal) else {
            // Not the store's doing (a closed pipe, an interrupt): end the same way.
            restoreDefaultAction(signal)
            raise(signal)
            exit(128 + signal)
        }
        FileHandle.standardError.write(
            Data(
                ("trendstore: store \(store.path) is unreadable: reading it was killed by signal "
                    + "\(signal) (\(String(cString: strsignal(signal)))), so a page of its file is "
                    + "damaged; restore a backup, or export the series that still read and import them "
                    + "into a new store\n").utf8))
        exit(3)
    }
}

/// Gives `signal` its default action again, so raising it ends this process as it ended the child.
private func restoreDefaultAction(_ signal: Int32) {
    #if canImport(Glibc)
        _ = Glibc.signal(signal, SIG_DFL)
    #elseif canImport(Darwin)
        _ = Darwin.signal(signal, SIG_DFL)
    #endif
}
