import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TestSupport
import TrendStore
import TrendStoreGenerator

/// Two processes creating, dry-running or failing their first import on one store at once
/// (an app and its widget on first launch): real `trendstore` processes, many trials.
/// `TRENDSTORE_RACE_TRIALS` sets how many (the note on issue 32 reports 50 per race).
@Suite("Races on a new store", .serialized)
struct StoreCreationRaceTests {
    static let trials =
        Int(ProcessInfo.processInfo.environment["TRENDSTORE_RACE_TRIALS"] ?? "") ?? 6

    /// A CSV of `days` generated local days in Kathmandu, large enough that its import
    /// overlaps with another process's.
    static func generatedCSV(in directory: TemporaryDirectory, days: Int) throws -> String {
        var configuration = DatasetGenerator.Configuration(
            days: days, endDate: LocalDate("2026-03-10")!)
        configuration.timeZone = TimeZone(identifier: "Asia/Kathmandu")!
        let path = directory.url.appendingPathComponent("generated-\(days).csv").path
        let writer = try SampleCSVWriter(path: path)
        try DatasetGenerator(configuration).generate { try writer.write($0) }
        try writer.close()
        return path
    }

    /// One sample of series `x`.
    static func oneSample(in directory: TemporaryDirectory) throws -> String {
        try directory.file(
            "one.csv", containing: "series,start,end,value\nx,1763683200000,1763683260000,1\n")
    }

    /// Runs the tool with each argument list at once (what they print discarded) and waits
    /// for all of them. No dispatch source reads their output: one left on a pipe whose
    /// handle is released races its closing and crashed libdispatch's event loop.
    static func runTogether(_ runs: [[String]], staggered delay: TimeInterval = 0) throws -> [Int32]
    {
        guard let tool = CommandLineTool.url else { throw CommandLineTool.ToolMissing() }
        var started: [ChildProcess] = []
        for (index, arguments) in runs.enumerated() {
            if index > 0 && delay > 0 { Thread.sleep(forTimeInterval: delay) }
            started.append(try ChildProcess(tool, arguments: arguments))
        }
        for process in started { process.waitUntilExit() }
        return started.map(\.terminationStatus)
    }

    @Test("two processes creating one store both use the zone, grid and phase it records")
    func concurrentCreation() async throws {
        try await withTemporaryDirectory { directory in
            let big = try Self.generatedCSV(in: directory, days: 20)
            let one = try Self.oneSample(in: directory)
            for trial in 0..<Self.trials {
                let store = directory.url.appendingPathComponent("store-\(trial)").path
                let statuses = try Self.runTogether([
                    ["import", big, "--store", store, "--tz", "Asia/Kathmandu"],
                    ["import", one, "--store", store, "--tz", "Asia/Kathmandu"],
                ])
                #expect(statuses == [0, 0], "trial \(trial)")
                let opened = try TrendStore(directory: URL(fileURLWithPath: store))
                #expect(opened.defaultTimeZone.identifier == "Asia/Kathmandu", "trial \(trial)")
                #expect(opened.rollupGrid == .hour, "trial \(trial)")
                #expect(opened.hourSummaryMinute == 15, "trial \(trial)")
                let report = try await opened.verify()
                #expect(report.isHealthy, "trial \(trial): \(report)")
                let names = try Set(opened.series().map(\.name))
                #expect(names.isSuperset(of: ["activeEnergy", "x"]), "trial \(trial)")
                await opened.close()
            }
        }
    }

    @Test("a dry run beside an import into a new store neither creates nor removes it")
    func dryRunBesideImport() async throws {
        try await withTemporaryDirectory { directory in
            let big = try Self.generatedCSV(in: directory, days: 20)
            let one = try Self.oneSample(in: directory)
            for trial in 0..<Self.trials {
                let store = directory.url.appendingPathComponent("store-\(trial)").path
                let statuses = try Self.runTogether(
                    [
                        ["import", big, "--dry-run", "--store", store],
                        ["import", one, "--store", store],
                    ], staggered: 0.05)
                #expect(statuses == [0, 0], "trial \(trial)")
                let opened = try TrendStore(directory: URL(fileURLWithPath: store))
                #expect(try opened.series().map(\.name) == ["x"], "trial \(trial)")
                await opened.close()
            }
            // Alone, a dry run makes no store where there was none, and changes no byte of one.
            let absent = directory.url.appendingPathComponent("absent").path
            #expect(
                try CommandLineTool.run(["import", big, "--dry-run", "--store", absent]).status == 0
            )
            #expect(!FileManager.default.fileExists(atPath: absent))
            let existing = directory.url.appendingPathComponent("store-0/data.mdb")
            let before = try Data(contentsOf: existing)
            let legacy = Fixtures.path("legacy/average-data-cache-v2.json")
            for file in [big, legacy] {
                let run = try CommandLineTool.run([
                    "import", file, "--dry-run", "--store",
                    existing.deletingLastPathComponent().path,
                ])
                #expect(run.status == 0, "\(run.output)")
            }
            #expect(try Data(contentsOf: existing) == before)
        }
    }

    @Test("a failed first import removes its empty store but never one another process wrote")
    func failedFirstImportBesideImport() async throws {
        try await withTemporaryDirectory { directory in
            let big = try Self.generatedCSV(in: directory, days: 20)
            let bad = directory.url.appendingPathComponent("bad.csv").path
            try (String(contentsOfFile: big, encoding: .utf8) + "x,not-a-time,1,1,kcal\n")
                .write(toFile: bad, atomically: true, encoding: .utf8)
            let one = try Self.oneSample(in: directory)
            for trial in 0..<Self.trials {
                let store = directory.url.appendingPathComponent("store-\(trial)").path
                let statuses = try Self.runTogether(
                    [
                        ["import", bad, "--atomic", "--store", store],
                        ["import", one, "--store", store],
                    ], staggered: Double(trial % 3) * 0.1)
                #expect(statuses == [1, 0], "trial \(trial)")
                let opened = try TrendStore(directory: URL(fileURLWithPath: store))
                #expect(try opened.series().map(\.name) == ["x"], "trial \(trial)")
                await opened.close()
            }
            let alone = directory.url.appendingPathComponent("alone").path
            #expect(
                try CommandLineTool.run(["import", bad, "--atomic", "--store", alone]).status == 1)
            #expect(!FileManager.default.fileExists(atPath: alone))
        }
    }

    @Test("removeStoreIfEmpty removes only a store that holds nothing and that no process has open")
    func removeIfEmpty() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            var store: TrendStore? = try TrendStore(directory: url)
            #expect(try TrendStore.removeStoreIfEmpty(at: url) == false)  // open here
            await store?.close()
            store = nil
            #expect(try TrendStore.removeStoreIfEmpty(at: url) == true)
            #expect(!FileManager.default.fileExists(atPath: url.path))

            let written = try TrendStore(directory: url)
            try await written.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "s", unit: ""
            )
            await written.close()
            #expect(try TrendStore.removeStoreIfEmpty(at: url) == false)
            #expect(
                FileManager.default.fileExists(atPath: url.appendingPathComponent("data.mdb").path))
        }
    }

    @Test("an open waiting for the lock while a remover takes the empty store away makes it again")
    func openWaitingOnRemover() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            await try TrendStore(directory: url).close()
            // Held as a remover holds it (removeStoreIfEmpty): exclusively.
            let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            try #require(descriptor >= 0)
            try #require(flock(descriptor, LOCK_EX) == 0)
            // The open finds the data file, then waits for the directory's shared lock.
            let opening = Thread.detachedResult { try TrendStore(directory: url) }
            try await Task.sleep(for: .milliseconds(300))
            let files = FileManager.default
            for name in ["data.mdb", "lock.mdb"] {
                try files.removeItem(at: url.appendingPathComponent(name))
            }
            try files.removeItem(at: url)
            close(descriptor)
            let store = try await opening.value
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "x", unit: ""
            )
            #expect(try store.series().map(\.name) == ["x"])
            #expect(try await store.verify().isHealthy)
            await store.close()
        }
    }
}

extension Thread {
    /// Runs `body` on a thread of its own (it may block, as an open waiting for a lock
    /// does) and hands back what it returned or threw.
    fileprivate static func detachedResult<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) -> Task<T, any Error> {
        Task {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
            }
        }
    }
}
