import Foundation
import Testing
import TestSupport
@testable import TrendStore

@Suite("Opening without blocking, and one clock for every now")
struct OpenAndClockTests {
    @Test(
        "TrendStore.open creates and opens a store off the caller's thread; its errors are the initialiser's"
    )
    func asyncOpen() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            let store = try await TrendStore.open(directory: url)
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1.5)], to: "energy",
                unit: "kcal")
            #expect(try store.series().map(\.sampleCount) == [1])
            #expect(
                try store.appliedMigrations() == [
                    "0001-v1-average-to-v2-weekday-averages", "0002-blocks-to-layout-2",
                    "0003-commit-stamps", "0004-sources", "0005-change-log",
                    "0006-batched-row-rebuilds", "0007-store-bound-sealing", "0008-sample-ids",
                    "0009-whole-day-versions",
                ])
            await store.close()
            let file = directory.url.appendingPathComponent("a-file")
            try Data("not a store".utf8).write(to: file)
            await #expect(throws: StoreError.self) {
                _ = try await TrendStore.open(directory: file)
            }
        }
    }

    @Test(
        "a new store, plain or encrypted, is made in three commits (its tables, its settings, its migrations' record); opening it again commits nothing"
    )
    func creationCommits() throws {
        try withTemporaryDirectory { directory in
            var encrypted = StoreOptions()
            encrypted.encryptionKey = try EncryptionKey(rawBytes: [UInt8](repeating: 7, count: 32))
            for (name, options) in [("plain", StoreOptions()), ("encrypted", encrypted)] {
                let url = directory.url.appendingPathComponent(name)
                do {
                    let store = try TrendStore(directory: url, options: options)
                    #expect(try store.engine.snapshotID() == 3, "\(name)")
                }
                let store = try TrendStore(directory: url, options: options)
                #expect(try store.engine.snapshotID() == 3, "\(name)")
                #expect(try store.verify().isHealthy)
            }
        }
    }

    @Test("queries without a now read the store's clock, the one the cache rules read")
    func queriesReadTheStoreClock() async throws {
        let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        // 2026-03-04 (a Wednesday) 10:00 in Los Angeles.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_772_647_200))
        var options = StoreOptions()
        options.timeZone = losAngeles
        options.clock = clock.reading
        try await withTemporaryStore(options: options) { store, _ in
            var generator = SampleGenerator(seed: 4)
            try await store.write(
                generator.minuteSamples(from: 1_772_000_000_000, count: 12_000), to: "energy",
                unit: "kcal")
            for instant in [clock.now, clock.now.addingTimeInterval(-86_400 * 3 - 3_600)] {
                clock.set(instant)
                #expect(
                    try store.todayCurve(of: "energy")
                        == (try store.todayCurve(of: "energy", now: instant)))
                #expect(
                    try store.weekdayAverage(of: "energy", weekday: .tuesday)
                        == (try store.weekdayAverage(of: "energy", weekday: .tuesday, now: instant))
                )
                #expect(
                    try store.weekdayAverages(of: "energy")
                        == (try store.weekdayAverages(of: "energy", now: instant)))
                #expect(
                    try store.read { try $0.todayCurve(of: "energy") }
                        == (try store.todayCurve(of: "energy", now: instant)))
            }
            // The two instants are different days: the default followed the clock.
            clock.set(Date(timeIntervalSince1970: 1_772_647_200))
            let today = try store.todayCurve(of: "energy")
            clock.set(Date(timeIntervalSince1970: 1_772_647_200 - 86_400 * 3 - 3_600))
            #expect(try store.todayCurve(of: "energy").date != today.date)
        }
    }
}
