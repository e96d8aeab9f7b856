import Foundation
import Testing
import TestSupport

@testable import TrendStore

/// The stores of format 2 committed under `Fixtures/stores/format-2/` (FORMAT.md), made by
/// TrendStore 1.1 from the same source file as those of format 1: every later release must
/// open them and answer as that file says, read-only as they are and writable after its own
/// migrations. They are never regenerated.
@Suite("Stores of format 2")
struct FormatTwoStoreTests {
    static let fixtures = FormatOneStoreTests.fixtures.map {
        FormatOneStoreTests.Fixture(
            directory: $0.directory.replacingOccurrences(of: "format-1", with: "format-2"),
            zone: $0.zone, grid: $0.grid, hourSummaryMinute: $0.hourSummaryMinute)
    }

    @Test(
        "a committed store of format 2 opens read-only and writable, verifies, and answers as its source file and the wall-clock reference say",
        arguments: fixtures)
    func opensAndAnswers(_ fixture: FormatOneStoreTests.Fixture) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try Fixtures.copyOfStore(fixture.directory, in: directory.url)
        let source = try independentlyReadSamples(Fixtures.path("stores/format-1/source.csv"))
        let migrations = ["0001-v1-average-to-v2-weekday-averages", "0002-blocks-to-layout-2"]
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let before = try TrendStore(directory: copy, options: readOnly)
        #expect(try before.appliedMigrations() == migrations)
        try FormatOneStoreTests.expectAnswers(
            of: before, format: 2, fixture: fixture, source: source)
        await before.close()

        let store = try TrendStore(directory: copy)
        try FormatOneStoreTests.expectAnswers(
            of: store, format: 2, fixture: fixture, source: source)
        let late = Sample(
            startMilliseconds: FormatOneStoreTests.refreshedAt,
            endMilliseconds: FormatOneStoreTests.refreshedAt + 60_000, value: 1.5)
        try await store.write([late], to: "activeEnergy", unit: "kcal")
        #expect(
            try store.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture).count
                == (source["activeEnergy"]?.count ?? 0) + 1)
        #expect(try await store.verify().isHealthy)
    }

    #if Encryption
        @Test("the encrypted store of format 2 opens under its key and holds its source file")
        func encrypted() async throws {
            let fixture = "stores/format-2/los-angeles-encrypted"
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let copy = try Fixtures.copyOfStore(fixture, in: directory.url)
            var options = StoreOptions()
            options.encryptionKey = try #require(
                try encryptionKey(inFile: Fixtures.path(fixture) + "/key.hex"))
            let source = try independentlyReadSamples(Fixtures.path("stores/format-1/source.csv"))
            let store = try TrendStore(directory: copy, options: options)
            #expect(try store.formatVersion == 2)
            #expect(try store.encryptionCipher == "AES-256-GCM")
            for (name, samples) in source {
                #expect(
                    try store.samples(of: name, from: .distantPast, to: .distantFuture) == samples)
            }
            #expect(try await store.verify().isHealthy)
            var keyless = StoreOptions()
            keyless.readOnly = true
            #expect(throws: StoreError.self) { try TrendStore(directory: copy, options: keyless) }
        }
    #endif
}
