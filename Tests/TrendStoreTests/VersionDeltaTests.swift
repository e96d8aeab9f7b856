import Foundation
import Testing
import TrendStoreTesting

@testable import TrendStore

/// How small commits into a day keep the change log's records of its sample versions: the
/// base record, the deltas beside it, when they are merged and when they are folded in.
@Suite("The records of a day's sample versions")
struct VersionDeltaTests {
    /// A UTC midnight.
    static let dayStart: Int64 = 1_763_683_200_000

    static func seconds(_ range: Range<Int64>) -> [Sample] {
        range.map {
            Sample(
                startMilliseconds: dayStart + $0 * 1_000,
                endMilliseconds: dayStart + ($0 + 1) * 1_000, value: Double($0 % 7))
        }
    }

    /// The day's base record, and how many deltas lie beside it.
    static func records(of store: TrendStore) throws -> (base: [UInt8]?, deltas: Int) {
        let table = try #require(store.engine.storage.sync)
        return try store.engine.read { txn in
            let base = try table.table.keys(
                prefix: [SyncTable.Kind.dayVersions.rawValue], in: txn
            ).first.flatMap { key in
                try table.table.withValue(forKey: key, in: txn) { Array($0) }
            }
            let deltas = try table.table.keys(
                prefix: [SyncTable.Kind.versionDelta.rawValue], in: txn
            ).count
            return (base, deltas)
        }
    }

    @Test(
        "one-sample commits into a day of 3,200 samples: the deltas are merged every 32 commits, the base is written again only when they would hold more than a sixteenth of it, and the feed after every commit is exact"
    )
    func smallCommitsIntoALargeDay() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(Self.seconds(0..<3_200), to: "energy", unit: "kcal")
            let first = try Self.records(of: store)
            let firstBase = try #require(first.base)
            #expect(first.deltas == 0)
            var anchors: [ChangeAnchor] = []
            // Merges at commits 33, 65, …, 193 (193 entries: 193 × 16 ≤ 3,200); commit 225
            // would merge 225 entries, more than a sixteenth, so it folds them into the base.
            for second in Int64(3_200)..<3_424 {
                anchors.append(try store.changes(since: nil).anchor)
                try await store.write(
                    Self.seconds(second..<(second + 1)), to: "energy", unit: "kcal")
                let records = try Self.records(of: store)
                #expect(records.base == firstBase)
                #expect((1...SyncTable.maximumDeltas).contains(records.deltas))
            }
            for second in Int64(3_424)..<3_430 {
                anchors.append(try store.changes(since: nil).anchor)
                try await store.write(
                    Self.seconds(second..<(second + 1)), to: "energy", unit: "kcal")
            }
            let last = try Self.records(of: store)
            let lastBase = try #require(last.base)
            #expect(lastBase != firstBase)
            #expect(lastBase.withUnsafeBytes { DayVersions.entryCount(in: $0) } == 3_425)
            #expect(last.deltas == 5)
            for (index, anchor) in anchors.enumerated() {
                let written = try store.changes(since: anchor).written
                #expect(written.map(\.series) == ["energy"])
                #expect(written.first?.samples == Self.seconds(Int64(3_200 + index)..<3_430))
            }
            // A sample of the base replaced after the fold: its newer version is laid over the base's.
            let anchor = try store.changes(since: nil).anchor
            var replaced = Self.seconds(10..<11)
            replaced[0].value = 40
            try await store.write(replaced, to: "energy", unit: "kcal")
            #expect(try store.changes(since: anchor).written.first?.samples == replaced)
            let mirror = try TemporaryStore()
            try await mirror.store.apply(try store.changes(since: nil))
            var expected = Self.seconds(0..<3_430)
            expected[10] = replaced[0]
            #expect(
                try mirror.store.samples(of: "energy", from: .distantPast, to: .distantFuture)
                    == expected)
        }
    }
}
