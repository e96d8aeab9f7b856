import Foundation
import Testing
import TestSupport

import TrendStore

/// The stores of format 3 committed under `Fixtures/stores/format-3/` (FORMAT.md), made by
/// TrendStore 1.1 (commit stamps) from the same source file as those of formats 1 and 2: every later release
/// must open them and answer as that file says, read-only as they are and writable after its
/// own migrations. They are never regenerated.
@Suite("Stores of format 3")
struct FormatThreeStoreTests {
    static let fixtures = FormatOneStoreTests.fixtures.map {
        FormatOneStoreTests.Fixture(
            directory: $0.directory.replacingOccurrences(of: "format-1", with: "format-3"),
            zone: $0.zone, grid: $0.grid, hourSummaryMinute: $0.hourSummaryMinute)
    }
    /// The migrations a store of format 3 records.
    static let migrations = [
        "0001-v1-average-to-v2-weekday-averages", "0002-blocks-to-layout-2", "0003-commit-stamps",
    ]

    @Test(
        "a committed store of format 3 opens read-only and writable, verifies, and answers as its source file and the wall-clock reference say",
        arguments: fixtures)
    func opensAndAnswers(_ fixture: FormatOneStoreTests.Fixture) async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(fixture.directory, in: directory.url)
            let source = try independentlyReadSamples(Fixtures.path("stores/format-1/source.csv"))
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let before = try TrendStore(directory: copy, options: readOnly)
            #expect(try before.appliedMigrations() == Self.migrations)
            try FormatOneStoreTests.expectAnswers(
                of: before, format: 3, fixture: fixture, source: source)
            await before.close()

            // Writable: it records format 8 (sources, a change log); its samples are the default
            // source's.
            let store = try TrendStore(directory: copy)
            #expect(
                try store.appliedMigrations() == Self.migrations + [
                    "0004-sources", "0005-change-log", "0006-batched-row-rebuilds",
                    "0007-store-bound-sealing", "0008-sample-ids", "0009-whole-day-versions",
                ])
            try FormatOneStoreTests.expectAnswers(
                of: store, format: 9, fixture: fixture, source: source)
            #expect(try store.sources(of: "activeEnergy").map(\.name) == [""])
            let late = Sample(
                startMilliseconds: FormatOneStoreTests.refreshedAt,
                endMilliseconds: FormatOneStoreTests.refreshedAt + 60_000, value: 1.5)
            try await store.write([late], to: "activeEnergy", unit: "kcal")
            #expect(
                try store.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture).count
                    == (source["activeEnergy"]?.count ?? 0) + 1)
            #expect(try await store.verify().isHealthy)

            // A second source over the first sample: the watch counts there, the rest is as before.
            let energy = try #require(source["activeEnergy"]?.first)
            try await store.write([energy], to: "activeEnergy", unit: "kcal", source: "Apple Watch")
            #expect(try store.sources(of: "activeEnergy").map(\.name) == ["Apple Watch", ""])
            #expect(
                try store.samples(
                    of: "activeEnergy", from: .distantPast, to: .distantFuture,
                    source: "Apple Watch")
                    == [energy])
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test(
        "killed at a random moment of an import that migrates it to format 9, the store opens as format 3, 4, 5, 6, 7, 8 or 9, then finishes, healthy",
        .serialized, arguments: 0..<8)
    func killDuringMigration(trial: Int) async throws {
        let format = try await FormatTwoStoreTests.killMigratingImport(
            of: Self.fixtures[0].directory, seed: UInt64(trial) &+ 3_000)
        #expect((3...9).contains(format))
        print("format 3 → 9 kill trial \(trial): opened as format \(format), finished, healthy")
    }

    #if Encryption
        @Test("the encrypted store of format 3 opens under its key and holds its source file")
        func encrypted() async throws {
            try await FormatTwoStoreTests.expectEncryptedFixture(
                "stores/format-3/los-angeles-encrypted")
        }
    #endif
}
