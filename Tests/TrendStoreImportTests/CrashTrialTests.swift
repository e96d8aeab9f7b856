import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// How many kill trials to run: a handful by default, `TRENDSTORE_CRASH_TRIALS` for the long run.
private let trialCount =
    Int(ProcessInfo.processInfo.environment["TRENDSTORE_CRASH_TRIALS"] ?? "") ?? 6

@Suite("Crashes during imports", .serialized)
struct CrashTrialTests {
    static let batch = 4_000
    static let rows = 40_000

    /// A CSV of minute samples in time order, written once per test run.
    static let csv: (path: String, samples: [Sample]) = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "crash-trials-\(UUID().uuidString).csv"
        ).path
        var generator = SampleGenerator(seed: 77)
        let samples = generator.minuteSamples(from: 1_780_000_000_000, count: rows)
        let writer = try! SampleCSVWriter(path: path)
        try! writer.write(SeriesSamples(series: "energy", unit: "kcal", samples: samples))
        try! writer.close()
        return (path, samples)
    }()

    /// How long an import of the CSV takes from process start, measured once, so kills spread over it.
    static let importDuration: Double = {
        let directory = try! TemporaryDirectory()
        defer { directory.remove() }
        let started = Date()
        _ = try! CommandLineTool.run([
            "import", csv.path, "--store", directory.url.path, "--batch-size", String(batch),
        ])
        return Date().timeIntervalSince(started)
    }()

    @Test(
        "a store killed at a random moment of an import opens, verifies, and holds exactly the committed batches",
        arguments: 0..<trialCount)
    func killDuringImport(trial: Int) async throws {
        try await withTemporaryDirectory { directory in
            var random = SeededGenerator(seed: UInt64(trial))
            let output = try await CommandLineTool.killed(
                [
                    "import", Self.csv.path, "--store", directory.url.path, "--batch-size",
                    String(Self.batch), "--report-commits",
                ],
                after: .milliseconds(
                    Int(Double.random(in: 0...1.1, using: &random) * Self.importDuration * 1000)))
            let reported =
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").filter { $0.hasPrefix("committed ") }.compactMap {
                    Int($0.dropFirst(10))
                }.last ?? 0

            guard
                FileManager.default.fileExists(
                    atPath: directory.url.appendingPathComponent("data.mdb").path)
            else {
                #expect(reported == 0)  // killed before the store was created
                return
            }
            let store = try TrendStore(directory: directory.url)
            let report = try await store.verify()
            #expect(report.isHealthy, "\(report.problems)")
            let stored =
                try committedSamples(of: "energy", in: store)
            // A batch may commit just before the kill, unreported: then one more whole batch is there.
            #expect(
                stored.count == reported || stored.count == reported + Self.batch
                    || stored.count == Self.rows,
                "reported \(reported) committed, found \(stored.count)")
            #expect(stored == Array(Self.csv.samples.prefix(stored.count)))
            print(
                "crash trial \(trial): \(reported) samples reported committed, \(stored.count) found, store healthy"
            )
        }
    }
}
