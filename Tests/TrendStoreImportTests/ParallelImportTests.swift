import Foundation
import Testing
import TestSupport
@testable import TrendStore
import TrendStoreGenerator
@testable import TrendStoreImport

/// The import pipeline (issue 17, item 1): parsing on several threads beside the writer
/// gives the very store a one-thread import gives, with the same summary and the same
/// errors at the same lines, wherever the pieces are cut.
@Suite("Parallel import")
struct ParallelImportTests {
    /// A CSV of three generated series (one discrete), with quoted rows whose fields hold
    /// commas, doubled quotes and line breaks, CR-only and CRLF line endings, blank lines
    /// and malformed rows.
    static func mixedCSV(in directory: TemporaryDirectory) throws -> (path: String, rows: Int) {
        var configuration = DatasetGenerator.Configuration(
            days: 12, endDate: LocalDate("2026-03-10")!)
        configuration.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        configuration.heartRateSeries = "heartRate"
        configuration.energyDecimals = 4
        let generated = directory.url.appendingPathComponent("generated.csv").path
        let writer = try SampleCSVWriter(path: generated, includesKind: true)
        try DatasetGenerator(configuration).generate { try writer.write($0) }
        try writer.close()
        var lines = try String(contentsOfFile: generated, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let header = lines.removeFirst()
        var text = header + "\n"
        var random = SeededGenerator(seed: 17)
        for (index, line) in lines.enumerated() {
            switch Int.random(in: 0..<400, using: &random) {
            case 0:
                // The same row, every field quoted, and the series name split by a quoted line break.
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                text += fields.map { "\"\($0)\"" }.joined(separator: ",") + "\r\n"
            case 1:
                text +=
                    "\"odd\nname\",\(1_700_000_000_000 + index),\(1_700_000_000_000 + index),1,\"u\"\"nit\",\r"
            case 2:
                text += "activeEnergy,\(1_700_000_000_000 + index),not-a-time,1,kcal,\n"
            case 3:
                text += "\n"
            default:
                text += line + (index % 3 == 0 ? "\r\n" : "\n")
            }
        }
        let path = directory.url.appendingPathComponent("mixed.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, lines.count)
    }

    /// Every key and value of every database of the store.
    static func contents(of store: TrendStore) throws -> [[UInt8]] {
        let storage = store.engine.storage
        return try store.engine.read { txn in
            var entries: [[UInt8]] = []
            for database in [
                storage.meta.database, storage.series.database, storage.blocks.database,
                storage.days.database, storage.hours.database,
            ] + (storage.sources.map { [$0.database] } ?? []) {
                try txn.withCursor(database) { cursor in
                    try cursor.forEach { key, value in
                        entries.append(Array(key) + [0xFF] + Array(value))
                        return true
                    }
                }
            }
            return entries
        }
    }

    /// Imports `path` into a new store in `directory` with `configure`d options; returns the
    /// store's contents and the summary (or the error's text).
    static func importAndDump(
        _ path: String, into directory: URL, configure: (inout ImportOptions) -> Void
    ) async throws -> (contents: [[UInt8]], outcome: String, samples: Int) {
        var storeOptions = StoreOptions()
        storeOptions.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        let fixed = Date(timeIntervalSince1970: 1_790_000_000)
        storeOptions.clock = { fixed }
        let store = try TrendStore(directory: directory, options: storeOptions)
        var options = ImportOptions()
        configure(&options)
        let outcome: String
        do {
            var summary = try await Importer(store: store).importFile(at: path, options: options)
            summary.seconds = 0
            outcome =
                "read \(summary.recordsRead), skipped \(summary.skipped) \(summary.skippedExamples), "
                + "ignored \(summary.ignored.sorted { $0.key < $1.key }), written \(summary.written.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.inserted)/\($0.value.replaced)" })"
        } catch {
            outcome = "\(error)"
        }
        let samples = try store.series().map {
            try store.samples(of: $0.name, from: .distantPast, to: .distantFuture).count
        }.reduce(0, +)
        return (try contents(of: store), outcome, samples)
    }

    @Test(
        "parsing on several threads, in pieces cut anywhere, writes the very bytes a one-thread import writes",
        arguments: [(2, 1 << 20), (2, 4_096), (4, 777), (3, 64)])
    func sameBytes(threads: Int, sliceBytes: Int) async throws {
        try await withTemporaryDirectory { directory in
            let (path, rows) = try Self.mixedCSV(in: directory)
            func configure(threads: Int, sliceBytes: Int) -> (inout ImportOptions) -> Void {
                { options in
                    options.skipInvalid = true
                    options.batchSize = 7_000
                    options.threads = threads
                    options.sliceBytes = sliceBytes
                }
            }
            let single = try await Self.importAndDump(
                path, into: directory.url.appendingPathComponent("single"),
                configure: configure(threads: 1, sliceBytes: 1 << 20))
            let parallel = try await Self.importAndDump(
                path, into: directory.url.appendingPathComponent("parallel"),
                configure: configure(threads: threads, sliceBytes: sliceBytes))
            #expect(parallel.outcome == single.outcome)
            #expect(parallel.contents == single.contents)
            // The file held something worth comparing: most rows imported, a few skipped.
            #expect(single.samples > rows * 9 / 10)
            #expect(single.outcome.contains("skipped 0") == false)
            #expect(single.outcome.contains("end: \\\"not-a-time\\\""), "\(single.outcome)")
        }
    }

    @Test(
        "a bad row far into the file stops the import at its line, with the batches before it committed, however it is parsed",
        arguments: [(1, 1 << 20), (2, 1 << 20), (2, 1_000), (5, 300)])
    func errorAtItsLine(threads: Int, sliceBytes: Int) async throws {
        try await withTemporaryDirectory { directory in
            var text = "series,start,end,value,unit\n"
            for row in 0..<30_000 {
                let start = 1_700_000_000_000 + Int64(row) * 60_000
                text +=
                    row == 24_321
                    ? "a,\(start),\(start + 60_000),1..5,kcal\n"
                    : "a,\(start),\(start + 60_000),1.5,kcal\n"
            }
            let path = try directory.file("bad.csv", containing: text)
            let outcome = try await Self.importAndDump(
                path, into: directory.url.appendingPathComponent("store")
            ) { options in
                options.batchSize = 5_000
                options.threads = threads
                options.sliceBytes = sliceBytes
            }
            // Row 24,321 is on line 24,323 (after the header); 24,321 good rows before it
            // fill four batches of 5,000.
            #expect(
                outcome.outcome
                    == "\(path):24323: value: \"1..5\" is not a number (20000 samples of earlier batches were committed and stay; re-running the same file is safe: imports are idempotent)"
            )
            #expect(outcome.samples == 20_000)
        }
    }

    @Test("CR-only line endings and a last row without one read the same in any pieces")
    func carriageReturns() async throws {
        try await withTemporaryDirectory { directory in
            var text = "series,start,end,value\r"
            for row in 0..<500 {
                let start = 1_700_000_000_000 + Int64(row) * 60_000
                text += "a,\(start),\(start + 60_000),\(row)" + (row == 499 ? "" : "\r")
            }
            let path = try directory.file("cr.csv", containing: text)
            var results: [[[UInt8]]] = []
            for (threads, sliceBytes) in [(1, 1 << 20), (2, 33), (3, 10)] {
                let result = try await Self.importAndDump(
                    path, into: directory.url.appendingPathComponent("store-\(sliceBytes)")
                ) { options in
                    options.threads = threads
                    options.sliceBytes = sliceBytes
                }
                #expect(result.samples == 500)
                results.append(result.contents)
            }
            #expect(results.allSatisfy { $0 == results[0] })
        }
    }
}

/// The number parser (issue 17, item 3): exact, as `Double(String)` is.
@Suite("Parsing numbers")
struct NumberParserTests {
    private func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBytes { NumberParser.double($0) }
    }

    @Test("every double's shortest decimal reads back to the same bits")
    func shortestRoundTrip() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<200_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let text = "\(value)"
            #expect(parse(text)?.bitPattern == value.bitPattern, "\(text)")
        }
    }

    @Test("random decimal strings read as Double(String) reads them")
    func decimalStrings() {
        var random = SeededGenerator(seed: 7)
        let digits = Array("0123456789")
        for _ in 0..<200_000 {
            var text = Bool.random(using: &random) ? "" : "-"
            let whole = Int.random(in: 1...20, using: &random)
            text += String((0..<whole).map { _ in digits.randomElement(using: &random)! })
            if Bool.random(using: &random) {
                let fraction = Int.random(in: 0...22, using: &random)
                text +=
                    "." + String((0..<fraction).map { _ in digits.randomElement(using: &random)! })
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                text += "e\(Int.random(in: -330...310, using: &random))"
            }
            let expected = Double(text)
            let got = parse(text)
            if let expected, expected.isFinite {
                #expect(got?.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(got == nil, "\(text)")
            }
        }
    }

    @Test("epoch milliseconds take the fast path; 14 digits are a compact date")
    func timestamps() {
        func milliseconds(_ text: String) -> Int64? {
            Array(text.utf8).withUnsafeBytes { TimestampParser.milliseconds($0) }
        }
        #expect(milliseconds("1700000000123") == 1_700_000_000_123)
        #expect(milliseconds("0") == 0)
        #expect(milliseconds("-86400000") == -86_400_000)
        // Fourteen characters with a sign: an instant before 1970 (1926), not a compact date.
        #expect(milliseconds("-1358265577090") == -1_358_265_577_090)
        #expect(milliseconds("20151107171924+0100") == 1_446_913_164_000)
        #expect(milliseconds("999999999999999999") == 999_999_999_999_999_999)
        #expect(milliseconds("9999999999999999999") == nil)
        #expect(milliseconds("17000000001x3") == nil)
    }
}
