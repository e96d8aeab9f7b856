import Foundation
import Testing
import TestSupport
import TrendStoreGenerator

import TrendStore

/// The store of format 5 committed under `Fixtures/stores/format-5/`, made by TrendStore 1.3:
/// a "phone" store that imported `phone.csv`, synced twice with a "tablet" store that imported
/// `tablet.csv` and later `tablet-rewrites.csv`, pruned its heart rate before 2026-03-10 between
/// the two syncs, and set a priority order of its own after them. Every later release must
/// open it and answer as those files, the merge rule and its recorded change log say.
/// Never regenerated.
@Suite("The store of format 5 (change log)")
struct FormatFiveStoreTests {
    static let fixture = "stores/format-5/los-angeles-synced"
    static let order = ["Alice’s Apple Watch (Watch)", "Alice’s iPhone (iPhone)", "Oura"]
    static let anchor = "ts1-ad425602163bf33e10d78a2c9236e648-5"
    static let tabletAnchor = "ts1-b216ffefe980acb3eefd2866e003d78a-5"
    /// 2026-03-10T00:00 in Los Angeles (PDT): the prune's bound.
    static let pruneBound: Int64 = 1_773_126_000_000

    /// A sample's identity in the fixture files.
    struct Identity: Hashable {
        let series: String
        let source: String
        let start: Int64
        let end: Int64
    }

    /// The fixture files' samples by identity, read with string splitting (no name in them
    /// holds a comma or a quote), not by the importer; later files replace earlier values.
    static func expectedSamples() throws -> [Identity: Double] {
        var result: [Identity: Double] = [:]
        for file in ["phone.csv", "tablet.csv", "tablet-rewrites.csv"] {
            let text = try String(
                contentsOfFile: Fixtures.path("stores/format-5/" + file), encoding: .utf8)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(
                    String.init)
                guard fields.count == 7, let start = Int64(fields[1]),
                    let end = Int64(fields[2]), let value = Double(fields[3])
                else { continue }
                result[Identity(series: fields[0], source: fields[6], start: start, end: end)] =
                    value
            }
        }
        return result.filter { $0.key.series != "heartRate" || $0.key.start >= pruneBound }
    }

    /// Every sample of `store` by identity, read source by source.
    static func samples(of store: TrendStore) throws -> [Identity: Double] {
        var result: [Identity: Double] = [:]
        for series in ["activeEnergy", "heartRate"] {
            for source in try store.sources(of: series) {
                for sample in try store.samples(
                    of: series, from: .distantPast, to: .distantFuture, source: source.name)
                {
                    result[
                        Identity(
                            series: series, source: source.name,
                            start: sample.startMilliseconds, end: sample.endMilliseconds)] =
                        sample.value
                }
            }
        }
        return result
    }

    /// Checks `store`'s merged day curves of activeEnergy against the slow merge reference.
    static func expectMergedCurves(
        of store: TrendStore, samples: [Identity: Double], order: [String]
    ) throws {
        var bySource: [String: [Sample]] = [:]
        for (identity, value) in samples where identity.series == "activeEnergy" {
            bySource[identity.source, default: []].append(
                Sample(
                    startMilliseconds: identity.start, endMilliseconds: identity.end,
                    value: value))
        }
        let ranked = SourcePriority.ranked(Array(bySource.keys), order: order)
        let pieces = ReferenceMerge.prorated(
            ReferenceMerge.merge(ranked.map { bySource[$0] ?? [] }))
        let reference = ReferenceAggregator(zone: store.defaultTimeZone)
        let first = try #require(LocalDate("2026-03-09"))
        for offset in 0..<3 {
            let date = first.adding(days: offset)
            expectClose(
                try store.dayCurve(of: "activeEnergy", on: date).cumulative,
                reference.cumulativeCurve(of: date, samples: pieces), "\(date)")
        }
    }

    @Test(
        "it opens read-only and writable, verifies, and holds the synced samples, the prune, the order and the anchors"
    )
    func opensAndAnswers() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let expected = try Self.expectedSamples()
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            for options in [readOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == (options.readOnly ? 5 : 9))
                #expect(
                    try store.appliedMigrations().last
                        == (options.readOnly ? "0005-change-log" : "0009-whole-day-versions"))
                #expect(try await store.verify().isHealthy)
                #expect(try store.sourcePriority(of: "activeEnergy") == Self.order)
                #expect(try Self.samples(of: store) == expected)
                try Self.expectMergedCurves(of: store, samples: expected, order: Self.order)
                #expect(try store.changeAnchor().description == Self.anchor)
                let tablet = try #require(ChangeAnchor(Self.tabletAnchor))
                let kept = try store.externalAnchor(
                    named: "trendstore.sync." + tablet.storeIdentifier)
                #expect(kept.map { String(decoding: $0, as: UTF8.self) } == Self.tabletAnchor)
                #expect(try store.changes(since: store.changeAnchor()).isEmpty)
                await store.close()
            }
        }
    }

    @Test("its recorded change log answers a feed from any of its commits")
    func recordedFeed() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let store = try TrendStore(directory: copy, options: readOnly)
            // Commit 3 was the prune; 4 applied the tablet's 12 rewrites, 5 set the order.
            let afterPrune = try store.changes(
                since: #require(ChangeAnchor("ts1-ad425602163bf33e10d78a2c9236e648-3")))
            #expect(afterPrune.sampleCount == 12)
            #expect(afterPrune.deletionCount == 0)
            #expect(afterPrune.priorityCount == 1)
            let afterImport = try store.changes(
                since: #require(ChangeAnchor("ts1-ad425602163bf33e10d78a2c9236e648-1")))
            #expect(afterImport.deletionCount == 1)
            #expect(afterImport.anchor.description == Self.anchor)
            await store.close()
        }
    }

    @Test("its whole feed, applied to a new store, gives the same samples, order and curves")
    func wholeFeedConverges() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let store = try TrendStore(directory: copy)
            let changes = try store.changes(since: nil)
            let decoded = try ChangeSet(encoded: changes.encoded())
            var options = StoreOptions()
            options.timeZone = try #require(TimeZone(identifier: "America/Los_Angeles"))
            let other = try TrendStore(
                directory: directory.url.appendingPathComponent("other"), options: options)
            _ = try await other.apply(decoded)
            #expect(try await other.apply(decoded).changedNothing)
            let expected = try Self.expectedSamples()
            #expect(try Self.samples(of: other) == expected)
            #expect(try other.sourcePriority(of: "activeEnergy") == Self.order)
            try Self.expectMergedCurves(of: other, samples: expected, order: Self.order)
            // A write on the fixture travels to the copy through the fixture's own anchor.
            let anchor = try store.changeAnchor()
            try await store.write(
                [
                    Sample(
                        startMilliseconds: Self.pruneBound, endMilliseconds: Self.pruneBound,
                        value: 70)
                ],
                to: "heartRate", unit: "count/min", source: "Polar H10")
            let later = try store.changes(since: anchor)
            #expect(later.sampleCount == 1)
            #expect(try await other.apply(later).samplesWritten == 1)
            #expect(try Self.samples(of: other) == Self.samples(of: store))
            await store.close()
            await other.close()
        }
    }
}
