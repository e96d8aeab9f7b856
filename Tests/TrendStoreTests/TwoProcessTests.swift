import Foundation
import LMDB
import Testing
import TestSupport
import TrendStoreGenerator
import TrendStoreImport
@testable import TrendStore

/// A CSV of `count` minute samples of `series`, and the samples.
private func writeCSV(
    _ directory: TemporaryDirectory, series: String, seed: Int, count: Int, from start: Int64
) throws -> (String, [Sample]) {
    var generator = SampleGenerator(seed: seed)
    let samples = generator.minuteSamples(from: start, count: count)
    let path = directory.url.appendingPathComponent("\(series).csv").path
    let writer = try SampleCSVWriter(path: path)
    try writer.write(SeriesSamples(series: series, unit: "kcal", samples: samples))
    try writer.close()
    return (path, samples)
}

@Suite("Two processes at once")
struct TwoProcessTests {
    @Test(
        "a reader sees consistent snapshots while another process writes: each day's rollup equals its samples"
    )
    func readerBesideWriter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storeURL = directory.url.appendingPathComponent("store")
        let start: Int64 = 1_780_000_000_000
        let (csv, _) = try writeCSV(
            directory, series: "energy", seed: 3, count: 60_000, from: start)
        let store = try TrendStore(directory: storeURL, options: .quarterHourGrid)
        try await store.write(
            [Sample(startMilliseconds: start, endMilliseconds: start + 1, value: 0)], to: "energy",
            unit: "kcal")
        let (writer, _) = try CommandLineTool.start([
            "import", csv, "--store", storeURL.path, "--batch-size", "1500",
        ])

        let engine = store.engine
        let days = (0..<42).map { start.floorDivided(by: 86_400_000) + Int64($0) }
        var snapshots = 0
        var sawPartial = false
        let deadline = Date().addingTimeInterval(20)
        repeat {
            let counts: [Int] = try engine.read { txn in
                let record = try engine.storage.requireSeries(named: "energy", in: txn)
                let rows = try RollupRows(
                    storage: engine.storage, record: record, days: DaySlots(wholeDays: days),
                    includesStarts: true,
                    txn: txn)
                let samples = try engine.storage.samples(
                    of: record, from: days[0] * 86_400_000 - record.maximumDuration,
                    to: (days.last! + 1) * 86_400_000, in: txn, zlib: ZlibCodec())
                for day in days {
                    let reference = RollupReference.slots(day: day, samples: samples)
                    let stored = (0..<96).map { slot in
                        rows.base(ofDay: day).map { rows.prorated[$0 + slot] } ?? 0
                    }
                    let expected = reference.map(\.prorated).reduce(0, +)
                    #expect(
                        close(
                            stored.reduce(0, +), expected,
                            scale: reference.map(\.magnitude).reduce(0, +)), "day \(day)")
                }
                return [samples.count]
            }
            snapshots += 1
            if counts[0] > 1 && counts[0] < 60_001 { sawPartial = true }
            _ = try store.weekdayAverages(
                of: "energy", now: Date(milliseconds: start + 40 * 86_400_000))
        } while writer.isRunning && Date() < deadline
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(snapshots > 1)
        #expect(sawPartial, "no snapshot fell between the writer's first and last commit")
        #expect(
            try store.samples(of: "energy", from: .distantPast, to: .distantFuture).count == 60_001)
        #expect(try await store.verify().isHealthy)
    }

    @Test("two writer processes on one store both land, serialised by LMDB's writer lock")
    func twoWriters() async throws {
        try await withTemporaryDirectory { directory in
            let storeURL = directory.url.appendingPathComponent("store")
            let (first, firstSamples) = try writeCSV(
                directory, series: "a", seed: 1, count: 30_000, from: 1_780_000_000_000)
            let (second, secondSamples) = try writeCSV(
                directory, series: "b", seed: 2, count: 30_000, from: 1_780_000_000_000)
            // created before both, so neither races to create it
            _ = try TrendStore(directory: storeURL)
            let one = try CommandLineTool.start([
                "import", first, "--store", storeURL.path, "--batch-size", "1000",
            ])
            let two = try CommandLineTool.start([
                "import", second, "--store", storeURL.path, "--batch-size", "1000",
            ])
            let outputs = [one, two].map {
                String(
                    decoding: $0.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            }
            one.process.waitUntilExit()
            two.process.waitUntilExit()
            #expect(
                one.process.terminationStatus == 0 && two.process.terminationStatus == 0,
                "\(outputs)")
            let store = try TrendStore(directory: storeURL)
            #expect(
                try store.samples(of: "a", from: .distantPast, to: .distantFuture) == firstSamples)
            #expect(
                try store.samples(of: "b", from: .distantPast, to: .distantFuture) == secondSamples)
            #expect(try await store.verify().isHealthy)
        }
    }
}
