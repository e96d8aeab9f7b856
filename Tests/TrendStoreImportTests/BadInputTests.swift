import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

@Suite("Bad input gets a clear error, never a crash, and writes nothing")
struct BadInputTests {
    @Test(
        "each broken file names where and what",
        arguments: [
            ("bad/missing-column.csv", 1, "end", "the header has no end column"),
            (
                "bad/bad-start.csv", 4, "start",
                "\"2026-03-08 00:00:00\": expected epoch milliseconds"
            ),
            ("bad/bad-value.csv", 3, "value", "\"NaN\" is not a finite number"),
            ("bad/end-before-start.csv", 2, "end", "is before start"),
            ("bad/unterminated-quote.csv", 2, nil, "the file ends inside a quoted field"),
            ("bad/bad-line.ndjson", 2, "value", "missing or not a finite number"),
            ("bad/latin1.csv", 3, "series", "is not valid UTF-8"),
            ("bad/decimal-comma.csv", 3, nil, "has 5 fields where the header has 4"),
            ("bad/short-row.csv", 3, nil, "has 4 fields where the header has 5"),
            (
                "bad/long-sample.csv", 2, "end",
                "the sample lasts 3287181.0 days; a sample lasts at most 14"
            ),
        ] as [(String, Int?, String?, String)])
    func namesTheProblem(fixture: String, line: Int?, field: String?, reason: String) async throws {
        try await withTemporaryStore { store, _ in
            let path = Fixtures.path(fixture)
            do {
                _ = try await Importer(store: store).importFile(at: path)
                Issue.record("\(fixture) imported without error")
            } catch let error as ImportError {
                #expect(error.file == path)
                #expect(error.line == line)
                #expect(error.field == field)
                #expect(error.reason.hasPrefix(reason), "\(error)")
            }
            let series = try store.series()
            #expect(series.isEmpty, "a batch with a bad record wrote something")
        }
    }

    @Test(
        "whole-file problems are named",
        arguments: [
            ("bad/empty.csv", "the file is empty"),
            ("bad/binary.csv", "binary data, not a text file this importer reads"),
            ("bad/utf16.csv", "UTF-16 text: save the file as UTF-8"),
            ("does/not/exist.csv", "no such file"),
        ])
    func namesFileProblems(fixture: String, reason: String) async throws {
        _ = try await withTemporaryStore { store, _ in
            await #expect(throws: ImportError(file: Fixtures.path(fixture), reason: reason)) {
                _ = try await Importer(store: store).importFile(at: Fixtures.path(fixture))
            }
        }
    }

    @Test("random bytes never crash the importer", arguments: 0..<40)
    func randomBytes(seed: Int) async throws {
        var random = SeededGenerator(seed: UInt64(seed))
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("random.csv").path
            var bytes = Array("series,start,end,value\n".utf8)
            let alphabet = Array("0123456789,.-:TZ+\"\n\r eactiv".utf8)
            for _ in 0..<Int.random(in: 0...400, using: &random) {
                bytes.append(alphabet.randomElement(using: &random)!)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.skipInvalid = seed.isMultiple(of: 2)
                // Whatever the bytes, the store holds exactly what the import says it committed.
                let committed: Int
                do {
                    committed = try await Importer(store: store).importFile(
                        at: path, options: options
                    ).committedSamples
                } catch let error as ImportError {
                    committed = error.committedSamples ?? 0
                }
                let stored = try store.series().reduce(0) { $0 + $1.sampleCount }
                // Duplicate identities in a batch are stored once, so never more than committed.
                #expect(stored <= committed, "\(stored) stored, \(committed) reported committed")
                #expect(
                    (stored == 0) == (committed == 0), "\(stored) stored, \(committed) committed")
                let report = try await store.verify()
                #expect(report.isHealthy)
            }
        }
    }
}
