import ArgumentParser
import Foundation
import TrendStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trendstore verify`: the store's integrity check.
///
/// The check runs in a child process of this tool: LMDB has no page checksums, so a damaged
/// B-tree page can make reading it fault (SIGBUS, SIGSEGV) or fail LMDB's own assertions
/// (SIGABRT). The parent reports that as damage, in one line with exit status 3, instead
/// of dying with the child.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract:
            "Check every block and rollup of a store; exit 3 when it is damaged or unreadable, 1 when it cannot be opened for another reason (none there, no permission)."
    )

    @OptionGroup var location: StoreLocation

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: .hidden)
    var inThisProcess = false

    func run() async throws {
        if inThisProcess { return try await check() }
        try superviseChild()
    }

    /// Runs the check in a child process and reports a child killed by a signal as damage.
    private func superviseChild() throws {
        let child = Process()
        child.executableURL =
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = Array(CommandLine.arguments.dropFirst()) + ["--in-this-process"]
        var environment = ProcessInfo.processInfo.environment
        // The runtime's crash report would be many lines: the parent says it in one.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        child.environment = environment
        do {
            try child.run()
        } catch {
            throw CommandFailure("cannot start the check: \(error)")
        }
        child.waitUntilExit()
        guard child.terminationReason == .uncaughtSignal else {
            throw ExitCode(child.terminationStatus)
        }
        let signal = child.terminationStatus
        let name = String(cString: strsignal(signal))
        FileHandle.standardError.write(
            Data(
                ("trendstore: store \(location.directory.path) is unreadable: reading it killed the check "
                    + "(signal \(signal), \(name)), so a page of its file is damaged; restore a backup, "
                    + "or export the series that still read and import them into a new store\n")
                    .utf8))
        throw ExitCode(3)
    }

    /// The check itself: damage found or a store that cannot be read is exit status 3.
    private func check() async throws {
        try await reportingErrors {
            let report: VerificationReport
            do {
                report = try location.open(readOnly: true).verify()
            } catch let error where StoreDamage.isDamage(error) {
                FileHandle.standardError.write(
                    Data(
                        "trendstore: store \(location.directory.path) is unreadable: \(Terminal.safe("\(error)"))\n"
                            .utf8))
                throw ExitCode(3)
            }
            if json {
                print(try JSONOutput.encode(report))
            } else {
                print(
                    "checked \(report.seriesChecked) series, \(report.chunksChecked) chunks, "
                        + "\(report.samplesChecked) samples, \(report.rollupsChecked) rollups: "
                        + (report.isHealthy ? "healthy" : "\(report.problems.count) problems"))
                for problem in report.problems { print("  \(Terminal.safe("\(problem)"))") }
            }
            if !report.isHealthy { throw ExitCode(3) }
        }
    }
}

/// Which errors say that a store's file is damaged, rather than absent or out of reach.
enum StoreDamage {
    /// LMDB's codes for a file that is not what it claims: `MDB_CORRUPTED`,
    /// `MDB_PAGE_NOTFOUND`, `MDB_INVALID`, `MDB_VERSION_MISMATCH`, `MDB_PANIC`,
    /// `MDB_INCOMPATIBLE`, `MDB_NOTFOUND` (a database every store has is missing),
    /// `MDB_BAD_TXN`, `MDB_BAD_VALSIZE`, `MDB_BAD_DBI`.
    static let lmdbCodes: Set<Int32> = [
        -30796, -30797, -30793, -30794, -30795, -30784, -30798, -30782, -30781, -30780,
    ]

    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return false }
        switch error {
        case .storage(_, _, let code, _): return lmdbCodes.contains(code)
        case .incompatibleFormat, .damagedChunk, .damagedRollup: return true
        default: return false
        }
    }
}
