import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

@Suite("Importing CSV and NDJSON files")
struct SampleFileImportTests {
    @Test(
        "fixtures import to exactly the samples an independent reading finds, and re-importing changes nothing",
        arguments: ["csv/energy-small.csv", "ndjson/energy-small.ndjson", "csv/bom-crlf.csv"])
    func importsFixture(fixture: String) async throws {
        try await withTemporaryStore { store, _ in
            let path = Fixtures.path(fixture)
            let expected = try independentlyReadSamples(path)
            let summary = try await Importer(store: store).importFile(at: path)
            #expect(summary.skipped == 0)
            for (series, samples) in expected {
                #expect(
                    try store.samples(of: series, from: .distantPast, to: .distantFuture)
                        == samples, "\(series)")
                #expect(summary.written[series]?.inserted == samples.count)
            }
            #expect(Set(try store.series().map(\.name)) == Set(expected.keys))
            let before = try store.series()
            let again = try await Importer(store: store).importFile(at: path)
            #expect(again.written.values.allSatisfy { $0.inserted == 0 && $0.replaced == 0 })
            #expect(try store.series() == before)
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test("the CSV fixture's figures: units from the file, the duplicated row's last value wins")
    func csvFigures() async throws {
        try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("csv/energy-small.csv"))
            #expect(try store.unit(of: "activeEnergy") == "kcal")
            #expect(try store.unit(of: "Run") == "m")
            let energy = try store.samples(
                of: "activeEnergy", from: .distantPast, to: .distantFuture)
            #expect(energy.count == 6)
            let expectedTotal: Double = 0.5 + 0.75 + 1.5 + 2 + 3.5 + 0.125
            #expect(energy.map(\.value).reduce(0, +) == expectedTotal)
            // 01:59 PST to 03:01 PDT is two minutes across the spring-forward gap.
            #expect(energy.contains { $0.durationMilliseconds == 120_000 && $0.value == 2 })
        }
    }

    @Test("a file named .csv holding NDJSON is read by its content")
    func detectsByContent() async throws {
        try await withTemporaryStore { store, _ in
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("bad/json-named-csv.csv"))
            #expect(summary.format == .ndjson)
            #expect(summary.written["activeEnergy"]?.inserted == 1)
        }
    }

    @Test("a failing record leaves earlier batches committed and nothing of its own batch")
    func partialBatches() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("eleven.csv").path
            var text = "series,start,end,value\n"
            for row in 0..<10 { text += "e,\(row * 60_000),\((row + 1) * 60_000),\(row)\n" }
            text += "e,600000,660000,oops\n"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.batchSize = 4
                do {
                    _ = try await Importer(store: store).importFile(at: path, options: options)
                    Issue.record("the import succeeded")
                } catch let error as ImportError {
                    #expect(
                        error
                            == ImportError(
                                file: path, line: 12, field: "value",
                                reason: "\"oops\" is not a number", committedSamples: 8))
                    #expect(
                        error.description
                            == "\(path):12: value: \"oops\" is not a number (8 samples of earlier batches were committed and stay; re-running the same file is safe: imports are idempotent)"
                    )
                }
                // Batches of rows 1–4 and 5–8 were committed; rows 9–10 shared the failing batch.
                #expect(
                    try store.samples(of: "e", from: .distantPast, to: .distantFuture).map(\.value)
                        == (0..<8).map(Double.init))
                #expect(try await store.verify().isHealthy)
            }
        }
    }

    @Test("--skip-invalid skips malformed records, counting them and keeping examples")
    func skipInvalid() async throws {
        try await withTemporaryStore { store, _ in
            var options = ImportOptions()
            options.skipInvalid = true
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("bad/bad-start.csv"), options: options)
            #expect(summary.recordsRead == 4)
            #expect(summary.skipped == 1)
            #expect(summary.skippedExamples.count == 1)
            #expect(
                summary.skippedExamples[0].hasSuffix(
                    "bad-start.csv:4: start: \"2026-03-08 00:00:00\": \(ImportErrorText.timestamp)")
            )
            #expect(
                try store.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture).count
                    == 3)
        }
    }
}

/// Message fragments the importer promises.
enum ImportErrorText {
    static let timestamp =
        "expected epoch milliseconds or ISO-8601 with a UTC offset (2026-03-08T01:59:00-08:00)"
}
