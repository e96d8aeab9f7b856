import ArgumentParser
import Foundation
import TrendStore
import TrendStoreImport

/// `trendstore bench`: generates a dataset, imports it and times the queries.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure import, size and query latencies on a generated dataset (use a release build).")

    @Option(help: "Days of data (70 = S, 730 = M, 3650 = L).")
    var days = 730

    @Option(help: "The last generated date; queries run at 13:37:12.345 local time on it.")
    var end = "2026-11-21"

    @Option(help: "The zone of the data and the queries.")
    var tz = "America/Los_Angeles"

    @Option(help: "Timed repetitions of each query.")
    var iterations = 2_000

    @Option(help: "Run only the queries whose label starts with this (for example Q3).")
    var only: String?

    @Option(help: "A directory for the CSV and the store (default: a new temporary one, removed afterwards).")
    var workDirectory: String?

    func validate() throws {
        guard LocalDate(end) != nil else { throw ValidationError("--end must be YYYY-MM-DD") }
        _ = try parseZone(tz)
    }

    func run() async throws {
        try await reportingErrors {
            let zone = try parseZone(tz)!
            let endDate = LocalDate(end)!
            let directory = URL(fileURLWithPath: workDirectory ?? NSTemporaryDirectory() + "trendstore-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { if workDirectory == nil { try? FileManager.default.removeItem(at: directory) } }

            var configuration = DatasetGenerator.Configuration(days: days, endDate: endDate)
            configuration.seed = 7
            configuration.timeZone = zone
            let csv = directory.appendingPathComponent("data.csv").path
            let writer = try SampleCSVWriter(path: csv)
            try DatasetGenerator(configuration).generate { try writer.write($0) }
            try writer.close()

            var storeOptions = StoreOptions()
            storeOptions.timeZone = zone
            let storeURL = directory.appendingPathComponent("store")
            try? FileManager.default.removeItem(at: storeURL)
            let store = try TrendStore(directory: storeURL, options: storeOptions)
            let summary = try await Importer(store: store).importFile(at: csv)
            let samples = summary.recordsRead
            print("dataset: \(days) days to \(end) in \(tz), \(samples) samples (seed 7)")
            print(String(format: "ingest: %.2f M samples/s end to end (%.2f s), process peak RSS %@",
                         summary.samplesPerSecond / 1e6, summary.seconds, Format.bytes(BenchClock.peakResidentBytes())))
            print(String(format: "size: %.2f bytes per sample (%@ data file)", Double(store.fileSize) / Double(samples), Format.bytes(store.fileSize)))

            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let now = calendar.date(from: DateComponents(year: endDate.year, month: endDate.month, day: endDate.day, hour: 13, minute: 37, second: 12, nanosecond: 345_000_000))!
            let weekday = endDate.weekday
            let series = "activeEnergy"

            var results: [(String, BenchClock.Timing)] = []
            func measure(_ label: String, _ runs: Int, _ body: (Int) throws -> Void) throws {
                guard only.map(label.hasPrefix) ?? true else { return }
                results.append((label, try BenchClock.time(runs, body)))
            }
            try measure("Q1 weekday average (weekday \(weekday)), uncached", iterations) { _ in
                _ = try store.weekdayAverage(of: series, weekday: weekday, now: now)
            }
            try measure("Q1 each weekday in turn", iterations) { index in
                _ = try store.weekdayAverage(of: series, weekday: index % 7 + 1, now: now)
            }
            try measure("Q1' all seven weekday averages in one call", iterations) { _ in
                _ = try store.weekdayAverages(of: series, now: now)
            }
            try measure("Q2 today's curve (warm chunk cache)", iterations * 5) { _ in
                _ = try store.todayCurve(of: series, now: now)
            }
            let first = endDate.adding(days: -364)
            try measure("Q3 one-year heatmap, Run + Ride", iterations) { _ in
                _ = try store.heatmap(of: ["Run", "Ride"], from: first, through: endDate)
            }
            try measure("Q4 all seven weekday averages, all time", max(20, iterations / 50)) { _ in
                _ = try store.weekdayAverages(of: series, now: now, options: .init(window: .allTime))
            }
            try measure("for scale: Q1 from raw samples", max(20, iterations / 50)) { _ in
                _ = try store.weekdayAverage(of: series, weekday: weekday, now: now, options: .init(fromRawSamples: true))
            }
            _ = try await store.refreshedWeekdayAverage(of: series, weekday: weekday, now: now)
            try measure("cached weekday average, read and decoded", iterations * 5) { _ in
                _ = try store.cachedWeekdayAverage(of: series, weekday: weekday, now: now)
            }
            if only == nil || "migration".hasPrefix(only!) {
                let pattern = (1...24).map { Double($0) * 10 }
                let migrationStart = BenchClock.now()
                try await store.importV1Average(of: series, pattern: pattern, projectedTotal: 240, computedAt: now.addingTimeInterval(-40 * 86_400))
                print(String(format: "migration of a v1 average to 7 v2 weekday averages: %.2f ms", BenchClock.seconds(since: migrationStart) * 1e3))
            }
            for (name, timing) in results {
                let label = name.padding(toLength: 50, withPad: " ", startingAt: 0)
                print(label + String(format: "median %9.1f µs   p99 %9.1f µs   (%d runs)", timing.median, timing.p99, timing.runs))
            }

            let scanStart = BenchClock.now()
            let scanned = try store.forEachChunk(of: series, from: .distantPast, to: .distantFuture) { _ in }
            let scanSeconds = BenchClock.seconds(since: scanStart)
            print(String(format: "raw scan: %.1f M samples/s (%d samples decoded in %.3f s)", Double(scanned) / scanSeconds / 1e6, scanned, scanSeconds))
            let dayStart = BenchClock.now()
            let day = try store.samples(of: series, from: now.addingTimeInterval(-86_400), to: now)
            print(String(format: "read back one day: %.1f µs (%d samples)", BenchClock.seconds(since: dayStart) * 1e6, day.count))
            let yearStart = BenchClock.now()
            let year = try store.samples(of: series, from: now.addingTimeInterval(-365 * 86_400), to: now)
            print(String(format: "read back one year: %.1f ms (%d samples)", BenchClock.seconds(since: yearStart) * 1e3, year.count))
        }
    }
}

/// Timing helpers for the bench command.
enum BenchClock {
    struct Timing {
        var median: Double
        var p99: Double
        var runs: Int
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func seconds(since start: UInt64) -> Double { Double(now() - start) / 1e9 }

    /// Runs `body` once untimed, then `runs` times, and returns the median and p99 in µs.
    static func time(_ runs: Int, _ body: (Int) throws -> Void) throws -> Timing {
        try body(0)
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for index in 0..<runs {
            let start = now()
            try body(index)
            samples.append(Double(now() - start) / 1e3)
        }
        samples.sort()
        return Timing(median: samples[samples.count / 2], p99: samples[min(samples.count - 1, samples.count * 99 / 100)], runs: runs)
    }

    static func time(_ runs: Int, _ body: () throws -> Void) throws -> Timing {
        try time(runs) { (_: Int) in try body() }
    }

    /// The process's peak resident set size in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
