import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

@Suite("A disk that fills up")
struct DiskFullTests {
    @Test("an import that runs out of space ends with a clear error, and the store opens, verifies and keeps whole batches")
    func fileSizeLimit() async throws {
        guard let tool = CommandLineTool.url else { throw CommandLineTool.ToolMissing() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var generator = SampleGenerator(seed: 4)
        let samples = generator.minuteSamples(from: 1_780_000_000_000, count: 200_000)
        let csv = directory.url.appendingPathComponent("big.csv").path
        let writer = try SampleCSVWriter(path: csv)
        try writer.write(SeriesSamples(series: "energy", unit: "kcal", samples: samples))
        try writer.close()
        let storeURL = directory.url.appendingPathComponent("store")
        _ = try TrendStore(directory: storeURL)

        // Files this process writes may not grow past 400 KiB: the data file hits the limit mid-import.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -f 800; trap '' XFSZ; exec \"$0\" import \"$1\" --store \"$2\" --batch-size 10000", tool.path, csv, storeURL.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(text.hasPrefix("trendstore: ") && text.contains("the disk may be full"), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "one line on standard error: \(text)")

        let store = try TrendStore(directory: storeURL)
        #expect(try store.verify().isHealthy)
        let stored = (try? store.samples(of: "energy", from: .distantPast, to: .distantFuture)) ?? []
        #expect(stored.count % 10_000 == 0 && stored.count < samples.count, "\(stored.count) samples")
        #expect(stored == Array(samples.prefix(stored.count)))
        // With room again, the same import completes.
        _ = try await Importer(store: store).importFile(at: csv)
        #expect(try store.samples(of: "energy", from: .distantPast, to: .distantFuture).count == samples.count)
    }
}
