import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// An import summary accounts for every record read (issue 32, item 13): new + replaced +
/// unchanged + repeated within the file + ignored by reason + skipped = records read.
@Suite("Import summaries add up")
struct ImportSummaryTests {
    /// What the summary says became of the records, added up.
    static func accounted(_ summary: ImportSummary) -> Int {
        summary.written.values.reduce(0) {
            $0 + $1.inserted + $1.replaced + $1.unchanged + $1.duplicates
        } + summary.ignored.values.reduce(0, +) + summary.skipped
    }

    @Test("30,000 rows of one identity in batches of 10,000: 1 new, 2 replaced, 29,997 repeated")
    func oneIdentity() async throws {
        try await withTemporaryDirectory { directory in
            let rows = (0..<30_000).map { "x,1763683200000,1763683260000,\($0)" }
            let path = try directory.file(
                "same.csv", containing: (["series,start,end,value"] + rows).joined(separator: "\n"))
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.batchSize = 10_000
                let summary = try await Importer(store: store).importFile(
                    at: path, options: options)
                #expect(summary.recordsRead == 30_000)
                #expect(
                    summary.written["x"]
                        == WriteSummary(inserted: 1, replaced: 2, unchanged: 0, duplicates: 29_997))
                #expect(Self.accounted(summary) == summary.recordsRead)
                #expect(
                    try store.samples(of: "x", from: .distantPast, to: .distantFuture).map(\.value)
                        == [29_999])
            }
        }
    }

    @Test(
        "every fixture, and a random file of repeats, bad rows and several series, adds up",
        arguments: [
            "apple-health/export.xml", "apple-health/export.zip", "csv/energy-small.csv",
            "ndjson/energy-small.ndjson", "strava/activities.csv", "strava/activities.json",
            "random",
        ])
    func fixtures(fixture: String) async throws {
        try await withTemporaryDirectory { directory in
            var path = Fixtures.path(fixture)
            if fixture == "random" {
                var random = SeededGenerator(seed: 32)
                var lines = ["series,start,end,value"]
                for _ in 0..<20_000 {
                    let start =
                        1_763_683_200_000 + Int64.random(in: 0..<300, using: &random) * 60_000
                    let series = ["a", "b", "c"][Int.random(in: 0..<3, using: &random)]
                    let value =
                        Int.random(in: 0..<50, using: &random) == 0
                        ? "bad" : "\(Int.random(in: 0..<3, using: &random))"
                    lines.append("\(series),\(start),\(start + 60_000),\(value)")
                }
                path = try directory.file("random.csv", containing: lines.joined(separator: "\n"))
            }
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.skipInvalid = true
                options.batchSize = 3_000
                let first = try await Importer(store: store).importFile(at: path, options: options)
                #expect(Self.accounted(first) == first.recordsRead, "\(first)")
                let again = try await Importer(store: store).importFile(at: path, options: options)
                #expect(Self.accounted(again) == again.recordsRead, "\(again)")
            }
        }
    }
}
