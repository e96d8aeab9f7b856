import Foundation
import Testing
import TestSupport
import TrendStoreGenerator

@testable import TrendStore

/// The stores of format 2 committed under `Fixtures/stores/format-2/` (FORMAT.md), made by
/// TrendStore 1.1 from the same source file as those of format 1: every later release must
/// open them and answer as that file says, read-only as they are and writable after its own
/// migrations (format 3: the commit stamp). They are never regenerated.
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
        try await withTemporaryDirectory { directory in
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

            // Writable: it is stamped, keeps sources and a change log, and records format 8.
            let store = try TrendStore(directory: copy)
            #expect(
                try store.appliedMigrations()
                    == migrations + [
                        "0003-commit-stamps", "0004-sources", "0005-change-log",
                        "0006-batched-row-rebuilds", "0007-store-bound-sealing", "0008-sample-ids",
                        "0009-whole-day-versions",
                    ])
            try FormatOneStoreTests.expectAnswers(
                of: store, format: 9, fixture: fixture, source: source)
            let late = Sample(
                startMilliseconds: FormatOneStoreTests.refreshedAt,
                endMilliseconds: FormatOneStoreTests.refreshedAt + 60_000, value: 1.5)
            try await store.write([late], to: "activeEnergy", unit: "kcal")
            #expect(
                try store.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture).count
                    == (source["activeEnergy"]?.count ?? 0) + 1)
            #expect(try await store.verify().isHealthy)
        }
    }

    /// How long a migrating import of the first fixture takes, measured once.
    static let importMicroseconds: Double = {
        guard let directory = try? TemporaryDirectory() else { return 50_000 }
        defer { directory.remove() }
        guard let copy = try? Fixtures.copyOfStore(fixtures[0].directory, in: directory.url),
            let late = try? BlockLayoutMigrationTests.lateCSV(in: directory)
        else { return 50_000 }
        let began = ContinuousClock.now
        _ = try? CommandLineTool.run(["import", late, "--store", copy.path])
        let took = ContinuousClock.now - began
        return Double(took.components.seconds) * 1e6 + Double(took.components.attoseconds) / 1e12
    }()

    @Test(
        "killed at a random moment of an import that migrates it to format 9, the store opens as format 2, 3, 4, 5, 6, 7, 8 or 9, then finishes, healthy",
        .serialized, arguments: 0..<8)
    func killDuringMigration(trial: Int) async throws {
        let format = try await Self.killMigratingImport(
            of: Self.fixtures[0].directory, seed: UInt64(trial) &+ 2_000)
        #expect((2...9).contains(format))
        print("format 2 → 9 kill trial \(trial): opened as format \(format), finished, healthy")
    }

    /// Kills an import into a copy of the committed store `fixture` at a random moment of the
    /// migrations it runs (drawn from `seed`), checks that the killed store holds its source
    /// file's samples and that a writable open finishes the migrations, healthy; returns the
    /// format the killed store opened as.
    static func killMigratingImport(of fixture: String, seed: UInt64) async throws -> Int {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try Fixtures.copyOfStore(fixture, in: directory.url)
        let source = try independentlyReadSamples(Fixtures.path("stores/format-1/source.csv"))
        let late = try BlockLayoutMigrationTests.lateCSV(in: directory)
        var random = SeededGenerator(seed: seed)
        // The migration commits within the first tens of milliseconds of the process: the
        // wait blocks this thread rather than sleep on a pool other tests keep busy.
        let (process, _) = try CommandLineTool.start(["import", late, "--store", copy.path])
        usleep(UInt32(Double.random(in: 0...1.1, using: &random) * Self.importMicroseconds))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let killed = try TrendStore(directory: copy, options: readOnly)
        let format = try killed.formatVersion
        for (name, samples) in source {
            #expect(try killed.samples(of: name, from: .distantPast, to: .distantFuture) == samples)
        }
        await killed.close()
        let store = try TrendStore(directory: copy)
        #expect(try store.formatVersion == Int(StorageFormat.current))
        #expect(try await store.verify().isHealthy)
        return format
    }

    #if Encryption
        @Test("the encrypted store of format 2 opens under its key and holds its source file")
        func encrypted() async throws {
            try await Self.expectEncryptedFixture("stores/format-2/los-angeles-encrypted")
        }

        /// Opens a copy of the encrypted committed store `fixture` under its key: it migrates
        /// to the current format, holds the format-1 source file and verifies, and does not
        /// open without its key.
        static func expectEncryptedFixture(_ fixture: String) async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(fixture, in: directory.url)
                let source = try independentlyReadSamples(
                    Fixtures.path("stores/format-1/source.csv"))
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == Int(StorageFormat.current))
                #expect(try store.encryptionCipher == "AES-256-GCM")
                for (name, samples) in source {
                    #expect(
                        try store.samples(of: name, from: .distantPast, to: .distantFuture)
                            == samples)
                }
                #expect(try await store.verify().isHealthy)
                var keyless = StoreOptions()
                keyless.readOnly = true
                #expect(throws: StoreError.self) {
                    try TrendStore(directory: copy, options: keyless)
                }
            }
        }
    #endif
}
