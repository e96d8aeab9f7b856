import Foundation
import Testing
import TestSupport
import TrendStore

/// What the CLI prints of names it did not choose (series, units, cache keys, errors) never
/// reaches the terminal as a control character: a name cannot move the cursor or clear the
/// screen (issue 32, item 13).
@Suite("Terminal output escapes control characters")
struct TerminalOutputTests {
    static let hostile = "evil\u{1B}[2J\u{7}\u{8}name\u{9B}1m\u{7F}"

    /// The control characters in `text` other than the line feeds that end lines.
    static func controls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
        }
    }

    @Test("info, cache list, import summaries, verify and error lines escape them")
    func escaped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storeURL = directory.url.appendingPathComponent("store")
        let store = try TrendStore(directory: storeURL)
        let now = Date(timeIntervalSince1970: 1_772_000_000)
        try await store.write(
            [Sample(start: now.addingTimeInterval(-3_600), end: now, value: 5)], to: Self.hostile,
            unit: "u\u{1B}]0;title\u{7}")
        _ = try await store.refreshedToday(of: Self.hostile, now: now)
        await store.close()
        let csv = try directory.file(
            "in.csv",
            containing:
                "series,start,end,value\n\"\(Self.hostile)\",1763683200000,1763683260000,1\n")
        let runs = [
            ["info", "--store", storeURL.path],
            ["cache", "list", "--store", storeURL.path],
            ["import", csv, "--store", storeURL.path],
            ["verify", "--store", storeURL.path],
            ["query", "today", "--series", Self.hostile + "x", "--store", storeURL.path],
        ]
        for arguments in runs {
            let result = try CommandLineTool.run(arguments)
            #expect(
                Self.controls(result.output).isEmpty,
                "\(arguments[0]): \(result.output.debugDescription)")
            if arguments[0] == "verify" { continue }  // healthy: it names no series
            #expect(
                result.output.contains("evil\\u{1B}[2J\\u{7}\\u{8}name\\u{9B}1m\\u{7F}"),
                "\(arguments[0])")
        }
    }
}
