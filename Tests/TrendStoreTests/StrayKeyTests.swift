import Foundation
import LMDB
import Testing
import TestSupport
import TrendStoreTesting

@testable import TrendStore

/// Values under keys no write makes (a damaged page, a hostile file): `verify` reports
/// them, and no command dies by a trap on the time a key claims, plain or encrypted.
@Suite("Rows under stray keys")
struct StrayKeyTests {
    static func options(encrypted: Bool) -> StoreOptions {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        if encrypted { options.encryptionKey = .random() }
        return options
    }

    /// Three days of minute samples of "e" ending at `end`; returns the series' id and
    /// the group of its newest hour summary.
    static func fill(_ store: TrendStore, end: Int64) async throws -> (UInt32, Int64) {
        let samples = (1...4_320).map { minute in
            let start = end - Int64(minute) * 60_000
            return Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: 1)
        }
        try await store.write(samples.reversed(), to: "e", unit: "kcal")
        let engine = store.engine
        let id = try engine.read { try engine.storage.requireSeries(named: "e", in: $0).id }
        let day = (end - 1).floorDivided(by: TimeGrid.day)
        return (id, HourSummaryCodec.group(ofDay: day, kind: .cumulative))
    }

    /// Puts `value` under `key` in `database` as raw bytes, past any sealing.
    static func put(
        _ value: [UInt8], _ key: [UInt8], in database: KeyPath<SampleStorage, Database>,
        of store: TrendStore
    ) throws {
        let engine = store.engine
        try engine.write { txn, _ in
            try txn.put(value, forKey: key, in: engine.storage[keyPath: database])
        }
    }

    @Test(
        "an hour summary of a group after the series' newest is reported by verify",
        arguments: [false, true])
    func spuriousHourSummary(encrypted: Bool) async throws {
        try await withTemporaryStore(options: Self.options(encrypted: encrypted)) { store, _ in
            let (id, group) = try await Self.fill(store, end: 1_780_000_000_000)
            try Self.put(
                [UInt8](repeating: 0x5A, count: 61), StorageKey.make(series: id, index: group + 3),
                in: \.hours.database, of: store)
            let report = try await store.verify()
            #expect(
                report.problems.contains { $0.kind == .damagedRollup && $0.series == "e" },
                "\(report.problems)")
        }
    }

    @Test(
        "an hour summary or a rollup row under a time beyond Int64 milliseconds is damage, never a trap",
        arguments: [false, true])
    func timeBeyondRange(encrypted: Bool) async throws {
        try await withTemporaryStore(options: Self.options(encrypted: encrypted)) { store, _ in
            let end: Int64 = 1_780_000_000_000
            let (id, _) = try await Self.fill(store, end: end)
            try Self.put(
                [UInt8](repeating: 0x5A, count: 61), StorageKey.make(series: id, index: 1 << 40),
                in: \.hours.database, of: store)
            try Self.put(
                [UInt8](repeating: 0x5A, count: 61), StorageKey.dayRowKey(series: id, day: 1 << 50),
                in: \.days.database, of: store)
            let report = try await store.verify()
            #expect(report.problems.count { $0.kind == .damagedRollup } >= 1, "\(report.problems)")
            // Each may answer or throw a damage error; none may trap.
            let now = Date(milliseconds: end)
            _ = try? store.todayCurve(of: "e", now: now)
            _ = try? store.statistics(
                of: "e", from: Date(milliseconds: end - 86_400_000), to: now,
                interval: .hours(1), options: [.sum])
            _ = try? await store.write(
                [Sample(startMilliseconds: end, endMilliseconds: end + 60_000, value: 1)],
                to: "e", unit: "kcal")
        }
    }
}
