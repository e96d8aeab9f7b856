import Foundation
import Testing
import TrendStoreTesting

@testable import TrendStore

/// The change feed: what `changes(since:)` gives after an anchor, the anchors' rules, the
/// retention, and external anchors kept in the commit of their samples.
@Suite("The change feed")
struct ChangeFeedTests {
    static let start: Int64 = 1_780_000_000_000

    static func minutes(_ range: Range<Int64>, value: Double = 1) -> [Sample] {
        range.map {
            Sample(
                startMilliseconds: start + $0 * 60_000, endMilliseconds: start + ($0 + 1) * 60_000,
                value: value)
        }
    }

    @Test("after an anchor, the feed gives exactly what was written, replaced and deleted since")
    func feedAfterAnchor() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(Self.minutes(0..<100), to: "energy", unit: "kcal")
            let everything = try store.changes(since: nil)
            #expect(everything.sampleCount == 100 && everything.deletionCount == 0)
            #expect(everything.declarations.map(\.unit) == ["kcal"])
            #expect(try store.changes(since: everything.anchor).isEmpty)

            // One new sample, one changed, one written again unchanged, one range deleted.
            try await store.write(Self.minutes(100..<101), to: "energy", unit: "kcal")
            try await store.write(Self.minutes(5..<6, value: 9), to: "energy", unit: "kcal")
            try await store.write(Self.minutes(7..<8), to: "energy", unit: "kcal")
            try await store.write(
                Self.minutes(0..<2, value: 4), to: "energy", unit: "kcal", source: "Watch")
            try await store.deleteSamples(
                of: "energy", from: Date(milliseconds: Self.start + 50 * 60_000),
                to: Date(milliseconds: Self.start + 60 * 60_000))
            let changes = try store.changes(since: everything.anchor)
            let written = Dictionary(
                uniqueKeysWithValues: changes.written.map { ($0.source, $0.samples) })
            #expect(written[""] == Self.minutes(5..<6, value: 9) + Self.minutes(100..<101))
            #expect(written["Watch"] == Self.minutes(0..<2, value: 4))
            #expect(
                changes.deletions.map(\.range) == [
                    (Self.start + 50 * 60_000)..<(Self.start + 60 * 60_000)
                ])
            #expect(changes.anchor != everything.anchor)
            #expect(try store.changes(since: changes.anchor).isEmpty)
        }
    }

    @Test(
        "anchors survive reopening and a backup, print and read back, and another store's is refused"
    )
    func anchorsBelongToOneStore() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("phone")
            var store = try TrendStore(directory: url)
            try await store.write(Self.minutes(0..<10), to: "energy", unit: "kcal")
            let anchor = try store.changes(since: nil).anchor
            #expect(ChangeAnchor(anchor.description) == anchor)
            let coded = try JSONDecoder().decode(
                ChangeAnchor.self, from: try JSONEncoder().encode(anchor))
            #expect(coded == anchor)
            for text in [
                "", "ts1-00-1", "ts2-\(String(repeating: "a", count: 32))-1",
                "ts1-\(String(repeating: "g", count: 32))-1",
                "ts1-\(String(repeating: "a", count: 32))-x",
            ] {
                #expect(ChangeAnchor(text) == nil, "\(text)")
            }
            try await store.backup(to: directory.url.appendingPathComponent("copy"))
            await store.close()
            store = try TrendStore(directory: url)
            try await store.write(Self.minutes(10..<12), to: "energy", unit: "kcal")
            #expect(try store.changes(since: anchor).sampleCount == 2)
            let copy = try TrendStore(directory: directory.url.appendingPathComponent("copy"))
            #expect(try copy.changes(since: anchor).isEmpty)
            let other = try TrendStore(directory: directory.url.appendingPathComponent("other"))
            #expect {
                try other.changes(since: anchor)
            } throws: { ($0 as? StoreError)?.code == "foreign-anchor" }
            // An anchor ahead of the feed (a store restored from an older copy) has expired.
            try await copy.write(Self.minutes(20..<21), to: "energy", unit: "kcal")
            let ahead = try store.changes(since: nil).anchor
            #expect(ahead.position > anchor.position)
            await store.close()
            #expect {
                try copy.changes(
                    since: ChangeAnchor(store: ahead.store, position: ahead.position + 5))
            } throws: { ($0 as? StoreError)?.code == "anchor-expired" }
        }
    }

    @Test(
        "deletions are remembered for the retention; an older anchor expires, and nil starts again")
    func retention() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
        var options = StoreOptions()
        options.clock = clock.reading
        options.changeRetentionDays = 3
        try await withTemporaryStore(options: options) { store, _ in
            try await store.write(Self.minutes(0..<10), to: "energy", unit: "kcal")
            let old = try store.changes(since: nil).anchor
            try await store.deleteSamples(
                of: "energy", from: Date(milliseconds: Self.start),
                to: Date(milliseconds: Self.start + 60_000))
            clock.advance(by: 2 * 86_400)
            try await store.write(Self.minutes(20..<21), to: "energy", unit: "kcal")
            #expect(try store.changes(since: old).deletionCount == 1)
            clock.advance(by: 2 * 86_400)
            try await store.write(Self.minutes(21..<22), to: "energy", unit: "kcal")
            #expect {
                try store.changes(since: old)
            } throws: { ($0 as? StoreError)?.code == "anchor-expired" }
            let fresh = try store.changes(since: nil)
            #expect(fresh.deletionCount == 0 && fresh.sampleCount == 11)
            #expect(try store.changes(since: fresh.anchor).isEmpty)
        }
    }

    @Test(
        "applying a change set twice changes nothing the second time; a damaged one is refused whole"
    )
    func applyIsIdempotent() async throws {
        let phone = try TemporaryStore()
        let tablet = try TemporaryStore()
        try await phone.store.write(
            Self.minutes(0..<30), to: "energy", unit: "kcal", source: "Watch")
        try await phone.store.setSourcePriority(["Watch"], for: "energy")
        try await phone.store.deleteSamples(
            of: "energy", from: Date(milliseconds: Self.start),
            to: Date(milliseconds: Self.start + 120_000))
        let changes = try phone.store.changes(since: nil)
        let first = try await tablet.store.apply(changes)
        #expect(first.samplesWritten == 28 && first.deletions == 1 && first.priorityOrders == 1)
        #expect(try await tablet.store.apply(changes).changedNothing)
        #expect(
            try tablet.store.samples(of: "energy", from: .distantPast, to: .distantFuture)
                == Self.minutes(2..<30))
        #expect(
            try tablet.store.changes(since: nil).written.flatMap(\.versions)
                == changes.written.flatMap(\.versions))

        var wrong = changes
        wrong.written[0].samples.swapAt(0, 1)
        await #expect {
            try await tablet.store.apply(wrong)
        } throws: { ($0 as? StoreError)?.code == "damaged-change-set" }
        var other = changes
        other.declarations[0].unit = "kJ"
        await #expect {
            try await tablet.store.apply(other)
        } throws: { ($0 as? StoreError)?.code == "unit-mismatch" }
    }

    @Test("an external anchor is stored in the commit of its samples, replaced, and removed")
    func externalAnchor() async throws {
        try await withTemporaryStore { store, _ in
            #expect(try store.externalAnchor(named: "healthkit.energy") == nil)
            try await store.write(
                [SeriesSamples(series: "energy", unit: "kcal", samples: Self.minutes(0..<5))],
                externalAnchor: Data([1, 2, 3]), named: "healthkit.energy")
            #expect(try store.externalAnchor(named: "healthkit.energy") == Data([1, 2, 3]))
            try await store.write([], externalAnchor: Data([4]), named: "healthkit.energy")
            #expect(try store.externalAnchor(named: "healthkit.energy") == Data([4]))
            try await store.write([], externalAnchor: Data(), named: "healthkit.energy")
            #expect(try store.externalAnchor(named: "healthkit.energy") == nil)
            await #expect {
                try await store.write([], externalAnchor: Data([1]), named: "")
            } throws: { ($0 as? StoreError)?.code == "invalid-argument.externalAnchor" }
            // A write that fails stores no anchor.
            await #expect(throws: StoreError.self) {
                try await store.write(
                    [SeriesSamples(series: "energy", unit: "kJ", samples: Self.minutes(9..<10))],
                    externalAnchor: Data([7]), named: "healthkit.energy")
            }
            #expect(try store.externalAnchor(named: "healthkit.energy") == nil)
        }
    }

    @Test(
        "a hundred one-sample commits into one day: the feed after any of them is exact, the day keeps at most 32 records beside its versions"
    )
    func manySmallCommits() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(Self.minutes(0..<1_000), to: "energy", unit: "kcal")
            var anchors: [ChangeAnchor] = []
            for minute in Int64(1_000)..<1_100 {
                anchors.append(try store.changes(since: nil).anchor)
                try await store.write(
                    Self.minutes(minute..<(minute + 1)), to: "energy", unit: "kcal")
            }
            for (index, anchor) in anchors.enumerated() where index % 7 == 0 {
                let changes = try store.changes(since: anchor)
                #expect(
                    changes.written.first?.samples == Self.minutes(Int64(1_000 + index)..<1_100))
            }
            // Two parts naming one sample twice: one version, the last value.
            try await store.write([
                SeriesSamples(
                    series: "energy", unit: "kcal", samples: Self.minutes(5..<6, value: 2)),
                SeriesSamples(
                    series: "energy", unit: "kcal", samples: Self.minutes(5..<6, value: 3)),
            ])
            let other = try TemporaryStore()
            try await other.store.apply(try store.changes(since: nil))
            #expect(
                try other.store.samples(of: "energy", from: .distantPast, to: .distantFuture)
                    == store.samples(of: "energy", from: .distantPast, to: .distantFuture))
            let table = try #require(store.engine.storage.sync)
            let deltas = try store.engine.read { txn in
                try table.table.keys(prefix: [SyncTable.Kind.versionDelta.rawValue], in: txn).count
            }
            #expect(deltas <= SyncTable.maximumDeltas)
        }
    }
}
