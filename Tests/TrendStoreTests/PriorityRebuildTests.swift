import Foundation
import Testing
import TestSupport
import TrendStoreGenerator

@testable import TrendStore

/// A priority change rebuilds a series' rows a batch of days per transaction: stopped after
/// any batch (as a kill there leaves it), the store answers under the new order from its
/// samples, verifies, and the next writable open finishes the rebuild.
@Suite("Priority rebuilds in batches")
struct PriorityRebuildTests {
    static let fixture = FormatFourStoreTests.fixture
    static let newOrder = ["Alice’s iPhone (iPhone)", "Oura"]
    /// The UTC days the fixture's samples touch: one batch each at one day a batch.
    static let days = 4

    /// Checks `store`'s merged day curves on `dates` against the slow merge reference under
    /// `order`, from the samples the store holds (each source's, read alone) around each date.
    static func expectCurves(
        of store: TrendStore, order: [String],
        on dates: [LocalDate] = (8..<13).compactMap { LocalDate(year: 2026, month: 3, day: $0) }
    ) throws {
        let zone = store.defaultTimeZone
        let reference = ReferenceAggregator(zone: zone)
        let names = try store.sources(of: "activeEnergy").map(\.name)
        let ranked = SourcePriority.ranked(names, order: order)
        for date in dates {
            // Three days either side of its UTC day hold every sample (none over 4 hours)
            // that can reach the local date, whatever the zone.
            let from = Date(milliseconds: (date.dayNumber - 3) * 86_400_000)
            let to = Date(milliseconds: (date.dayNumber + 4) * 86_400_000)
            let bySource = try ranked.map {
                try store.samples(of: "activeEnergy", from: from, to: to, source: $0)
            }
            let pieces = ReferenceMerge.prorated(ReferenceMerge.merge(bySource))
            expectClose(
                try store.dayCurve(of: "activeEnergy", on: date).cumulative,
                reference.cumulativeCurve(of: date, samples: pieces), "\(date) under \(order)")
        }
    }

    /// Whether the store marks activeEnergy as rebuilding.
    static func rebuilding(_ store: TrendStore) throws -> Bool {
        try store.engine.read {
            try store.engine.storage.requireSeries(named: "activeEnergy", in: $0).rebuildsRows
        }
    }

    @Test("stopped after every batch, it answers under the new order and finishes at the next open")
    func stoppedAtEveryBatch() async throws {
        for stop in 0...Self.days {
            try await withTemporaryDirectory { directory in
                let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
                do {
                    let store = try TrendStore(directory: copy)
                    try store.engine.setSourcePriority(
                        Self.newOrder, of: "activeEnergy", daysPerBatch: 1, stoppingAfter: stop)
                    await store.close()
                }
                var readOnly = StoreOptions()
                readOnly.readOnly = true
                let stopped = try TrendStore(directory: copy, options: readOnly)
                #expect(try stopped.sourcePriority(of: "activeEnergy") == Self.newOrder)
                #expect(try Self.rebuilding(stopped) == (stop < Self.days), "stop \(stop)")
                try Self.expectCurves(of: stopped, order: Self.newOrder)
                // verify compares the rebuilt days' rows and leaves the others to the rebuild.
                let report = try await stopped.verify()
                #expect(report.isHealthy, "stop \(stop): \(report.problems)")
                await stopped.close()

                let resumed = try TrendStore(directory: copy)
                #expect(try !Self.rebuilding(resumed))
                try Self.expectCurves(of: resumed, order: Self.newOrder)
                #expect(try await resumed.verify().isHealthy)
                await resumed.close()
            }
        }
    }

    @Test("writes and a second order between batches land in the rows the rebuild finishes")
    func changesBetweenBatches() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let store = try TrendStore(directory: copy)
            try store.engine.setSourcePriority(
                Self.newOrder, of: "activeEnergy", daysPerBatch: 1, stoppingAfter: 1)
            // A new source's hour on the last day, not rebuilt yet, and on the first, rebuilt.
            let lastDay: Int64 = 1_773_273_600_000  // 2026-03-12T00:00Z
            let firstDay: Int64 = 1_773_014_400_000  // 2026-03-09T00:00Z
            try await store.write(
                [
                    Sample(
                        startMilliseconds: lastDay + 3_600_000,
                        endMilliseconds: lastDay + 7_200_000,
                        value: 40),
                    Sample(
                        startMilliseconds: firstDay + 25_200_000,
                        endMilliseconds: firstDay + 28_800_000, value: 30),
                ], to: "activeEnergy", unit: "kcal", source: "Garmin")
            try Self.expectCurves(of: store, order: Self.newOrder)
            let second = ["Garmin", "Oura"]
            try store.engine.setSourcePriority(
                second, of: "activeEnergy", daysPerBatch: 1, stoppingAfter: 2)
            #expect(try Self.rebuilding(store))
            try Self.expectCurves(of: store, order: second)
            #expect(try await store.verify().isHealthy)
            await store.close()
            let resumed = try TrendStore(directory: copy)
            #expect(try !Self.rebuilding(resumed))
            try Self.expectCurves(of: resumed, order: second)
            #expect(try await resumed.verify().isHealthy)
            await resumed.close()
        }
    }

    @Test("a series deleted while its rows are rebuilt leaves no rebuild behind")
    func deletedWhileRebuilding() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let store = try TrendStore(directory: copy)
            try store.engine.setSourcePriority(
                Self.newOrder, of: "activeEnergy", daysPerBatch: 1, stoppingAfter: 1)
            try await store.deleteSeries("activeEnergy")
            #expect(
                try store.engine.read {
                    try PriorityRebuild(storage: store.engine.storage).seriesWithPendingRebuilds(
                        in: $0)
                } == [])
            #expect(try await store.verify().isHealthy)
            await store.close()
        }
    }

    @Test("a priority order applied from another store is rebuilt after the apply")
    func appliedOrder() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let store = try TrendStore(directory: copy)
            var options = StoreOptions()
            options.timeZone = store.defaultTimeZone
            let other = try TrendStore(
                directory: directory.url.appendingPathComponent("other"), options: options)
            _ = try await other.apply(try store.changes(since: nil))
            let anchor = try store.changeAnchor()
            try await store.setSourcePriority(Self.newOrder, for: "activeEnergy")
            #expect(try await other.apply(try store.changes(since: anchor)).priorityOrders == 1)
            #expect(try !Self.rebuilding(other))
            try Self.expectCurves(of: other, order: Self.newOrder)
            #expect(try await other.verify().isHealthy)
            await store.close()
            await other.close()
        }
    }

    /// A store of two sources over 1,000 days (hourly and three-hourly samples, 32,000 in
    /// all): eight batches of 128 days when its order changes.
    static func manyDays(in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("many-days")
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "America/Los_Angeles")
        let store = try TrendStore(directory: url, options: options)
        let first: Int64 = 1_700_000_000_000 - 1_700_000_000_000 % 3_600_000
        var generator = SeededGenerator(seed: 77)
        for (source, step) in [("Watch", Int64(3_600_000)), ("Phone", Int64(10_800_000))] {
            let samples = stride(from: first, to: first + 1_000 * 86_400_000, by: Int(step)).map {
                Sample(
                    startMilliseconds: $0, endMilliseconds: $0 + step,
                    value: Double(generator.next() % 1_000) / 10)
            }
            try await store.write(samples, to: "activeEnergy", unit: "kcal", source: source)
        }
        await store.close()
        return url
    }

    /// Days spread over ``manyDays(in:)``'s span.
    static let manyDates = (0..<8).compactMap {
        LocalDate(year: 2023, month: 11, day: 20)?.adding(days: $0 * 130)
    }

    @Test(
        "killed at random moments of a rebuild of eight batches in another process, it answers under one order, verifies, and finishes",
        .serialized, arguments: 0..<10)
    func killedAcrossBatches(trial: Int) async throws {
        try await withTemporaryDirectory { directory in
            let original = try await Self.manyDays(in: directory.url)
            let took = try Self.priorityDuration(of: original, in: directory.url)
            var random = SeededGenerator(seed: UInt64(trial) &+ 6_100)
            let copy = directory.url.appendingPathComponent("copy")
            try FileManager.default.copyItem(at: original, to: copy)
            let (process, _) = try CommandLineTool.start([
                "sources", "priority", "activeEnergy", "Phone", "--store", copy.path,
            ])
            usleep(UInt32(Double.random(in: 0...1.1, using: &random) * took))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            for options in [readOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                let order = try store.sourcePriority(of: "activeEnergy")
                #expect(order == [] || order == ["Phone"])
                let rebuilding = try Self.rebuilding(store)
                #expect(!rebuilding || !options.readOnly || order == ["Phone"])
                try Self.expectCurves(of: store, order: order, on: Self.manyDates)
                #expect(try await store.verify().isHealthy)
                if !options.readOnly { #expect(!rebuilding) }
                print(
                    "rebuild kill trial \(trial) (\(options.readOnly ? "as killed" : "reopened")): order \(order), rebuilding \(rebuilding)"
                )
                await store.close()
            }
        }
    }

    /// How long `trendstore sources priority` takes on a copy of `store`, in µs.
    static func priorityDuration(of store: URL, in directory: URL) throws -> Double {
        let copy = directory.appendingPathComponent("timed")
        try FileManager.default.copyItem(at: store, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let began = ContinuousClock.now
        _ = try CommandLineTool.run([
            "sources", "priority", "activeEnergy", "Phone", "--store", copy.path,
        ])
        let took = ContinuousClock.now - began
        return Double(took.components.seconds) * 1e6 + Double(took.components.attoseconds) / 1e12
    }
}
