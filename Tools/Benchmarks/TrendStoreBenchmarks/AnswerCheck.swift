import ArgumentParser
import Foundation
import TrendStore
import TrendStoreGenerator

extension TrendStoreBenchmarks {
    /// Fails the run when a peer's answers differ from TrendStore's by more than
    /// ``agreement``, or the DuckDB peer failed or disagrees; else says they agree.
    static func check(_ report: Report) throws {
        if let worst = report.rows.compactMap(\.difference).max(), worst > agreement {
            print("FAILED: answers differ by \(worst), more than \(agreement)")
            throw ExitCode.failure
        }
        if let duckDB = report.duckDB,
            duckDB.hasPrefix("DuckDB: failed") || duckDB.contains("differ by 1.0e+00")
                || duckDB.contains("differ by nan")
        {
            print("FAILED: the DuckDB peer failed or disagrees")
            throw ExitCode.failure
        }
        print("answers agree within \(agreement)")
    }

    /// The largest relative difference between TrendStore's answers and a peer's that passes.
    static let agreement = 1e-9
}

/// `--rollup-grid quarterHour|hour`.
extension RollupGrid: ExpressibleByArgument {}

/// `--zone`: an IANA zone name.
extension TimeZone: @retroactive ExpressibleByArgument {
    /// The zone named `argument`, or `nil` when there is none.
    public init?(argument: String) { self.init(identifier: argument) }
}

/// `--profile`: a data profile's name.
extension DataProfile: ExpressibleByArgument {}
