import Foundation
import Testing
import TestSupport

/// A page so damaged that LMDB stops on one of its own assertions (a cursor moving onto a
/// zeroed page) ends a `trendstore` command with one line and exit status 3, not SIGABRT
/// (issue 32: the tool never dies by a signal).
@Suite("LMDB's assertions in the tool")
struct AssertionExitTests {
    @Test("every page of a store zeroed in turn: stats and weekday-average never die by a signal")
    func zeroedPages() throws {
        try withTemporaryDirectory { directory in
            let base = directory.url.appendingPathComponent("base")
            let generated = try CommandLineTool.run([
                "generate", "--days", "30", "--seed", "7", "--tz", "America/Los_Angeles", "--end",
                "2026-03-20", "--heart-rate", "--store", base.path,
            ])
            #expect(generated.status == 0, "\(generated.output)")
            let original = try Data(contentsOf: base.appendingPathComponent("data.mdb"))
            let copy = directory.url.appendingPathComponent("copy")
            let queries = [
                [
                    "query", "stats", "--series", "heartRate", "--from", "2026-02-20", "--to",
                    "2026-03-20", "--interval", "1d", "--json",
                ],
                [
                    "query", "weekday-average", "--series", "activeEnergy", "--weekday", "monday",
                    "--all-time", "--now", "2026-03-20T12:00:00-07:00", "--json",
                ],
            ]
            var stopped = 0
            for page in 2..<(original.count / 4_096) {
                var damaged = original
                damaged.replaceSubrange(
                    (page * 4_096)..<((page + 1) * 4_096), with: [UInt8](repeating: 0, count: 4_096)
                )
                try? FileManager.default.removeItem(at: copy)
                try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
                try damaged.write(to: copy.appendingPathComponent("data.mdb"))
                for query in queries {
                    let result = try CommandLineTool.run(
                        query + ["--store", copy.path],
                        environment: ["SWIFT_BACKTRACE": "enable=no"])
                    #expect([0, 1, 3].contains(result.status), "page \(page): \(result.output)")
                    if result.output.contains("Assertion") {
                        stopped += 1
                        #expect(result.status == 3, "page \(page): \(result.output)")
                        #expect(
                            result.output.hasPrefix(
                                "trendstore: the store's file is damaged: LMDB stopped on a damaged page ("
                            ), "page \(page): \(result.output)")
                        #expect(result.output.split(separator: "\n").count == 1)
                    }
                }
            }
            // At least one zeroed page stops LMDB on an assertion, or the test shows nothing.
            #expect(stopped > 0)
        }
    }
}
