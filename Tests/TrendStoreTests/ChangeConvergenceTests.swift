import Foundation
import Testing
import TrendStoreGenerator
import TrendStoreTesting

@testable import TrendStore

/// Three stores that write (with sample ids or without), delete (by range or by id), reorder
/// sources and exchange change sets in random
/// order end with the samples and priority orders a sequential model gives: every store's
/// operations, run one after another in the order of their (shared, strictly increasing)
/// clock, on a dictionary of sample identities. The model knows nothing of versions, logs or
/// blocks; it holds the rule "the later operation wins" in its plainest form.
@Suite("Change sets converge")
struct ChangeConvergenceTests {
    struct Identity: Hashable, Comparable {
        let series: String
        let source: String
        let start: Int64
        let end: Int64

        static func < (lhs: Identity, rhs: Identity) -> Bool {
            (lhs.series, lhs.source, lhs.start, lhs.end) < (
                rhs.series, rhs.source, rhs.start, rhs.end
            )
        }
    }

    /// What every store must hold once all changes have travelled.
    struct Model {
        var samples: [Identity: Double] = [:]
        var priority: [String: [String]] = [:]

        mutating func write(_ samples: [Sample], series: String, source: String) {
            for sample in samples {
                self.samples[
                    Identity(
                        series: series, source: source, start: sample.startMilliseconds,
                        end: sample.endMilliseconds)] = sample.value
            }
        }

        mutating func delete(series: String, from: Int64, to: Int64) {
            samples = samples.filter {
                !($0.key.series == series && $0.key.start >= from && $0.key.start < to)
            }
        }
    }

    static let series = [
        ("activeEnergy", "kcal", SeriesKind.cumulative), ("heartRate", "bpm", .discrete),
    ]
    static let sources = ["", "Watch", "Ring"]
    static let day0: Int64 = 1_780_000_000_000 / TimeGrid.day * TimeGrid.day

    @Test(
        "three stores, random writes, deletions (by id too), priority orders and applies, converge to the model",
        arguments: 0..<40)
    func converge(seed: Int) async throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 54_000)
        let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
        var options = StoreOptions()
        options.clock = clock.reading
        options.timeZone = TimeZone(identifier: "Europe/Berlin")
        let stores = try (0..<3).map { _ in try TemporaryStore(options: options) }
        var anchors: [[ChangeAnchor?]] = Array(repeating: [nil, nil, nil], count: 3)
        var model = Model()

        func sync(_ from: Int, _ to: Int) async throws {
            let changes = try stores[from].store.changes(since: anchors[from][to])
            try await stores[to].store.apply(changes)
            anchors[from][to] = changes.anchor
        }

        for _ in 0..<100 {
            clock.advance(by: 1)
            let store = stores[Int.random(in: 0..<3, using: &random)].store
            let (series, unit, kind) = Self.series[Int.random(in: 0..<2, using: &random)]
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<5:
                let source = Self.sources.randomElement(using: &random) ?? ""
                var samples: [Sample] = []
                var used = Set<Int64>()
                for _ in 0..<Int.random(in: 1...12, using: &random) {
                    let minute = Int64.random(in: 0..<(3 * 1440), using: &random)
                    guard used.insert(minute).inserted else { continue }
                    let start = Self.day0 + minute * 60_000
                    let length: Int64 = Bool.random(using: &random) ? 60_000 : 300_000
                    samples.append(
                        Sample(
                            startMilliseconds: start, endMilliseconds: start + length,
                            value: Double(Int.random(in: 1...400, using: &random)) / 8))
                }
                if Bool.random(using: &random) {
                    let ids = samples.map { _ in SampleID(UUID()) }
                    try await store.write(
                        samples, ids: ids, to: series, unit: unit, kind: kind, source: source)
                } else {
                    try await store.write(
                        samples, to: series, unit: unit, kind: kind, source: source)
                }
                model.write(samples, series: series, source: source)
            case 10, 11:
                // A deletion by id of a sample this store holds with one.
                let named = try store.changes(since: nil).writtenSamples.filter {
                    $0.id != nil && $0.series == series
                }
                guard let target = named.randomElement(using: &random), let id = target.id
                else { continue }
                #expect(try await store.deleteSamples(withIDs: [id], from: series) == 1)
                model.samples.removeValue(
                    forKey: Identity(
                        series: series, source: target.source,
                        start: target.sample.startMilliseconds,
                        end: target.sample.endMilliseconds))
            case 5, 6:
                guard try store.unit(of: series) != nil else { continue }
                let from = Self.day0 + Int64.random(in: 0..<(3 * 1440), using: &random) * 60_000
                let to = from + Int64.random(in: 1...600, using: &random) * 60_000
                try await store.deleteSamples(
                    of: series, from: Date(milliseconds: from), to: Date(milliseconds: to))
                model.delete(series: series, from: from, to: to)
            case 7 where Int.random(in: 0..<6, using: &random) == 0:
                guard try store.unit(of: series) != nil else { continue }
                try await store.deleteSeries(series)
                model.delete(series: series, from: .min, to: .max)
                model.priority[series] = []
            case 7:
                guard try store.unit(of: "activeEnergy") != nil else { continue }
                let order = Array(Self.sources.shuffled(using: &random).prefix(2))
                try await store.setSourcePriority(order, for: "activeEnergy")
                model.priority["activeEnergy"] = order
            default:
                let from = Int.random(in: 0..<3, using: &random)
                let to = (from + Int.random(in: 1...2, using: &random)) % 3
                try await sync(from, to)
            }
        }
        for _ in 0..<2 {
            for from in 0..<3 {
                for to in 0..<3 where to != from { try await sync(from, to) }
            }
        }
        for (index, temporary) in stores.enumerated() {
            let store = temporary.store
            var held: [Identity: Double] = [:]
            for (series, _, _) in Self.series where try store.unit(of: series) != nil {
                for source in try store.sources(of: series).map(\.name) {
                    for sample in try store.samples(
                        of: series, from: .distantPast, to: .distantFuture, source: source)
                    {
                        held[
                            Identity(
                                series: series, source: source, start: sample.startMilliseconds,
                                end: sample.endMilliseconds)] = sample.value
                    }
                }
            }
            let missing = model.samples.keys.filter { held[$0] != model.samples[$0] }.sorted()
            let extra = held.keys.filter { model.samples[$0] == nil }.sorted()
            #expect(
                missing.isEmpty && extra.isEmpty,
                "store \(index): \(missing.prefix(3)) missing or wrong, \(extra.prefix(3)) extra")
            if let order = model.priority["activeEnergy"], try store.unit(of: "activeEnergy") != nil
            {
                #expect(try store.sourcePriority(of: "activeEnergy") == order, "store \(index)")
            }
            #expect(try await store.verify().isHealthy)
        }
        // The figures follow: every store answers the same day curves.
        let dates = (0..<3).map { LocalDate(dayNumber: Self.day0 / TimeGrid.day + Int64($0)) }
        // A series emptied by deletions may exist on one store and not on another that never
        // saw a sample of it: its curve is all zeros there.
        func curve(_ store: TrendStore, _ series: String, _ date: LocalDate) throws -> [Double] {
            guard try store.unit(of: series) != nil else { return Array(repeating: 0, count: 24) }
            return try store.dayCurve(of: series, on: date).cumulative
        }
        for (series, _, kind) in Self.series where kind == .cumulative {
            for date in dates {
                let first = try curve(stores[0].store, series, date)
                for other in stores.dropFirst() {
                    #expect(try curve(other.store, series, date) == first)
                }
            }
        }
        // Everything has travelled: one more exchange changes nothing anywhere.
        for from in 0..<3 {
            for to in 0..<3 where to != from {
                let changes = try stores[from].store.changes(since: nil)
                let summary = try await stores[to].store.apply(changes)
                #expect(summary.changedNothing, "\(from) → \(to): \(summary)")
            }
        }
    }
}
