import ArgumentParser
import Foundation
import TrendStore

/// `trendstore verify`: the store's integrity check.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract:
            "Check every block and rollup of a store; exit 3 when it is damaged or unreadable, 1 when it cannot be opened for another reason (none there, no permission)."
    )

    @OptionGroup var location: StoreLocation

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// Runs the check: damage found or a store that cannot be read is exit status 3.
    func run() async throws {
        try await reportingErrors {
            let report = try StoreDamage.exitingOnDamage(of: location) {
                try location.open(readOnly: true, showingEarlierCommit: true).verify()
            }
            if json {
                print(try JSONOutput.encode(report))
            } else {
                print(
                    "checked \(report.seriesChecked) series, \(report.blocksChecked) blocks, "
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

    /// Runs `body`; a damage error it throws is one line on standard error and exit
    /// status 3, naming the store at `location`.
    static func exitingOnDamage<R>(of location: StoreLocation, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error where isDamage(error) {
            FileHandle.standardError.write(
                Data(
                    "trendstore: store \(location.directory.path) is unreadable: \(Terminal.safe("\(error)"))\n"
                        .utf8))
            throw ExitCode(3)
        }
    }

    /// Whether `error` says the store's file is damaged.
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return false }
        switch error.code {
        case .storage: return error.systemCode.map(lmdbCodes.contains) ?? false
        case .incompatibleFormat, .damagedBlock, .damagedRollup: return true
        default: return false
        }
    }
}
