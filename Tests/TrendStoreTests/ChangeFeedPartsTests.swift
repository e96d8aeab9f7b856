import Foundation
import Testing
import TrendStoreGenerator
import TrendStoreTesting

import TrendStore

/// The feed in parts: bounded parts that, applied in any order, do what the whole set does.
@Suite("The change feed in parts")
struct ChangeFeedPartsTests {
    static let start: Int64 = 1_780_000_000_000

    /// A store of three sources over `days` days, with ids on one, a deletion of each kind
    /// and a priority order.
    static func store(days: Int) async throws -> TemporaryStore {
        let temporary = try TemporaryStore()
        let store = temporary.store
        var random = SeededGenerator(seed: 5_407)
        for source in ["Watch", "Ring", "Phone"] {
            let samples = (0..<Int64(days * 1440)).compactMap { minute -> Sample? in
                guard Int.random(in: 0..<4, using: &random) > 0 else { return nil }
                let begin = start + minute * 60_000
                return Sample(
                    startMilliseconds: begin, endMilliseconds: begin + 60_000,
                    value: Double(Int.random(in: 0...400, using: &random)) / 8)
            }
            if source == "Phone" {
                let ids = samples.map { _ in SampleID(UUID()) }
                try await store.write(samples, ids: ids, to: "energy", unit: "kcal", source: source)
                try await store.deleteSamples(withIDs: Array(ids.prefix(3)), from: "energy")
            } else {
                try await store.write(samples, to: "energy", unit: "kcal", source: source)
            }
        }
        try await store.declareSeries("steps", unit: "count")
        try await store.setSourcePriority(["Ring", "Watch"], for: "energy")
        try await store.deleteSamples(
            of: "energy", from: Date(milliseconds: start), to: Date(milliseconds: start + 600_000))
        return temporary
    }

    static func everything(of store: TrendStore) throws -> [String: [Sample]] {
        var held: [String: [Sample]] = [:]
        for source in try store.sources(of: "energy").map(\.name) {
            held[source] = try store.samples(
                of: "energy", from: .distantPast, to: .distantFuture, source: source)
        }
        return held
    }

    @Test("from nil and from an anchor, parts stay bounded and apply, in any order, as the whole")
    func partsApplyAsTheWhole() async throws {
        let source = try await Self.store(days: 6)
        let whole = try source.store.changes(since: nil)
        for (anchor, bound) in [(ChangeAnchor?.none, 2_000), (nil, 1), (whole.anchor, 50)] {
            if let anchor {
                // A day of new samples after the anchor, some with ids.
                let late = (0..<300).map { minute -> Sample in
                    let begin = Self.start + 8 * 86_400_000 + Int64(minute) * 60_000
                    return Sample(
                        startMilliseconds: begin, endMilliseconds: begin + 60_000, value: 2)
                }
                let ids = late.map { _ in SampleID(UUID()) }
                try await source.store.write(
                    late, ids: ids, to: "energy", unit: "kcal", source: "Phone")
                try await source.store.deleteSamples(withIDs: [ids[7]], from: "energy")
            }
            let expected = try source.store.changes(since: anchor)
            var parts: [ChangeSet] = []
            try source.store.changes(since: anchor, maximumSamples: bound) { parts.append($0) }
            #expect(parts.count > 1)
            // A part ends with the block (here, or day) that reaches the bound.
            #expect(parts.allSatisfy { $0.sampleCount < bound + 32_768 })
            #expect(parts.reduce(0) { $0 + $1.sampleCount } == expected.sampleCount)
            #expect(parts.allSatisfy { $0.anchor == expected.anchor })
            #expect(parts.last?.deletionCount == expected.deletionCount)
            #expect(parts.last?.priorityCount == expected.priorityCount)
            #expect(
                Set(parts.flatMap(\.writtenSampleIDs)) == Set(expected.writtenSampleIDs))

            let fromWhole = try TemporaryStore()
            let fromParts = try TemporaryStore()
            if anchor != nil {
                try await fromWhole.store.apply(whole)
                try await fromParts.store.apply(whole)
            }
            try await fromWhole.store.apply(expected)
            for part in parts.reversed() {
                try await fromParts.store.apply(try ChangeSet(encoded: try part.encoded()))
            }
            #expect(try Self.everything(of: fromParts.store) == Self.everything(of: source.store))
            #expect(try Self.everything(of: fromWhole.store) == Self.everything(of: source.store))
            #expect(try fromParts.store.unit(of: "steps") == "count")
            #expect(try fromParts.store.sourcePriority(of: "energy") == ["Ring", "Watch"])
        }
        await #expect(throws: StoreError.self) {
            try source.store.changes(since: nil, maximumSamples: 0) { _ in }
        }
    }
}
