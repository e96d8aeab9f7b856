import Foundation
import Testing
import TestSupport
import TrendStoreGenerator

import TrendStore

/// The store of format 4 committed under `Fixtures/stores/format-4/`, made by TrendStore 1.2
/// from `source.csv` beside it: a series of four sources (a watch, a phone, a ring's app and
/// the default source) with a priority order, and a discrete series of two. Every later
/// release must open it and answer as that file and the merge rule say. Never regenerated.
@Suite("The store of format 4 (sources)")
struct FormatFourStoreTests {
    static let fixture = "stores/format-4/los-angeles-sources"
    static let order = ["Oura", "Alice’s Apple Watch (Watch)"]

    /// The CSV's samples by series and source, read with string splitting (no name in it
    /// holds a comma or a quote), not by the importer.
    static func sourceFile() throws -> [String: [String: [Sample]]] {
        let text = try String(
            contentsOfFile: Fixtures.path("stores/format-4/source.csv"), encoding: .utf8)
        var result: [String: [String: [Sample]]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(
                String.init)
            guard fields.count == 7, let start = Int64(fields[1]), let end = Int64(fields[2]),
                let value = Double(fields[3])
            else { continue }
            result[fields[0], default: [:]][fields[6], default: []].append(
                Sample(startMilliseconds: start, endMilliseconds: end, value: value))
        }
        return result
    }

    @Test(
        "it opens read-only and writable, verifies, and answers as its source file and the merge reference say"
    )
    func opensAndAnswers() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let source = try Self.sourceFile()
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            for options in [readOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == (options.readOnly ? 4 : 9))
                #expect(
                    try store.appliedMigrations().last
                        == (options.readOnly ? "0004-sources" : "0009-whole-day-versions"))
                #expect(try await store.verify().isHealthy)
                #expect(try store.sourcePriority(of: "activeEnergy") == Self.order)
                let ranked = SourcePriority.ranked(
                    Array(try #require(source["activeEnergy"]).keys), order: Self.order)
                #expect(try store.sources(of: "activeEnergy").map(\.name) == ranked)
                for (series, sources) in source {
                    for (name, samples) in sources {
                        #expect(
                            try store.samples(
                                of: series, from: .distantPast, to: .distantFuture, source: name)
                                == samples.sorted {
                                    ($0.startMilliseconds, $0.endMilliseconds)
                                        < ($1.startMilliseconds, $1.endMilliseconds)
                                }, "\(series) \(name)")
                    }
                }
                let energy = try #require(source["activeEnergy"])
                let kept = ReferenceMerge.merge(ranked.map { energy[$0] ?? [] })
                let pieces = ReferenceMerge.prorated(kept)
                let reference = ReferenceAggregator(zone: store.defaultTimeZone)
                let first = try #require(LocalDate("2026-03-09"))
                for offset in 0..<3 {
                    let date = first.adding(days: offset)
                    expectClose(
                        try store.dayCurve(of: "activeEnergy", on: date).cumulative,
                        reference.cumulativeCurve(of: date, samples: pieces), "\(date)")
                }
                // A discrete series merges nothing: every source's readings count.
                let beats = try store.statistics(
                    of: "heartRate", from: Date(milliseconds: 1_772_000_000_000),
                    to: Date(milliseconds: 1_774_000_000_000), interval: .days(30),
                    options: [.count])
                #expect(beats.buckets.compactMap(\.count).reduce(0, +) == 200)
                await store.close()
            }
            // Writable: a new watch sample over an Oura-covered instant changes nothing there.
            let store = try TrendStore(directory: copy)
            try await store.write(
                [
                    Sample(
                        startMilliseconds: 1_773_039_600_000, endMilliseconds: 1_773_039_660_000,
                        value: 5)
                ],
                to: "activeEnergy", unit: "kcal", source: "Polar")
            #expect(try store.sources(of: "activeEnergy").count == 5)
            #expect(try await store.verify().isHealthy)
        }
    }

    /// How long `trendstore sources priority` takes on the fixture, measured once.
    static let priorityMicroseconds: Double = {
        guard let directory = try? TemporaryDirectory() else { return 50_000 }
        defer { directory.remove() }
        guard let copy = try? Fixtures.copyOfStore(fixture, in: directory.url) else {
            return 50_000
        }
        let began = ContinuousClock.now
        _ = try? CommandLineTool.run([
            "sources", "priority", "activeEnergy", "Alice’s iPhone (iPhone)", "--store", copy.path,
        ])
        let took = ContinuousClock.now - began
        return Double(took.components.seconds) * 1e6 + Double(took.components.attoseconds) / 1e12
    }()

    @Test(
        "killed at a random moment of a priority change, the store holds the old order or the new, its figures following it before and after the rebuild resumes",
        .serialized, arguments: 0..<8)
    func killDuringPriorityChange(trial: Int) async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            var random = SeededGenerator(seed: UInt64(trial) &+ 4_000)
            let new = ["Alice’s iPhone (iPhone)"]
            let (process, _) = try CommandLineTool.start(
                [
                    "sources", "priority", "activeEnergy",
                ] + new + [
                    "--store", copy.path,
                ])
            usleep(UInt32(Double.random(in: 0...1.1, using: &random) * Self.priorityMicroseconds))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // As the kill left it (read-only: nothing resumed), then after a writable open, which
            // finishes a rebuild the kill interrupted.
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            var killedWhileRebuilding = false
            for options in [readOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                let order = try store.sourcePriority(of: "activeEnergy")
                #expect(order == Self.order || order == new)
                if options.readOnly {
                    killedWhileRebuilding = try PriorityRebuildTests.rebuilding(store)
                }
                try PriorityRebuildTests.expectCurves(of: store, order: order)
                // verify rebuilds every merged row under the stored order and compares bytes.
                #expect(try await store.verify().isHealthy)
                await store.close()
                print(
                    "priority kill trial \(trial): order \(order == new ? "new" : "old"), killed while rebuilding: \(killedWhileRebuilding), healthy"
                )
            }
        }
    }
}
