import Foundation
import Testing
import TestSupport
import TrendStore

/// The engine against the wall-clock reference in every zone the toolchain knows
/// (issue 13): a fixed-seed slice here, a long mode by `Tools/differential.sh --seconds N`.
@Suite("Differential: every zone against the reference")
struct DifferentialTests {
    /// Every zone, in groups that run in parallel.
    static let zoneGroups: [[String]] = {
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted()
        return stride(from: 0, to: zones.count, by: 24).map {
            Array(zones[$0..<min($0 + 24, zones.count)])
        }
    }()

    @Test("a fixed-seed case in every zone agrees with the reference", arguments: zoneGroups)
    func everyZone(zones: [String]) async throws {
        for zone in zones {
            let check = DifferentialCase(zoneIdentifier: zone, seed: 2026)
            if let mismatch = try await check.firstMismatch() {
                let small = try await check.minimized()
                Issue.record("\(check): \(mismatch)\n\(small.repro)")
            }
        }
    }

    @Test(
        "long mode: random cases until TRENDSTORE_DIFFERENTIAL_SECONDS run out",
        .enabled(if: ProcessInfo.processInfo.environment["TRENDSTORE_DIFFERENTIAL_SECONDS"] != nil))
    func longMode() async throws {
        let seconds =
            Double(ProcessInfo.processInfo.environment["TRENDSTORE_DIFFERENTIAL_SECONDS"] ?? "")
            ?? 60
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted()
        let deadline = Date().addingTimeInterval(seconds)
        var seed = UInt64(Date().timeIntervalSince1970)
        var cases = 0
        var failures = 0
        while Date() < deadline {
            seed &+= 1
            let check = DifferentialCase(
                zoneIdentifier: zones[Int(seed % UInt64(zones.count))], seed: seed)
            cases += 1
            if let mismatch = try await check.firstMismatch() {
                failures += 1
                let small = try await check.minimized()
                Issue.record("\(check): \(mismatch)\nminimized repro:\n\(small.repro)")
            }
        }
        print(
            "differential long mode: \(cases) cases in \(Int(seconds)) s over \(zones.count) zones, \(failures) mismatches"
        )
    }
}
