import Foundation
import Testing
import TestSupport

import TrendStore

/// The plain store of format 7 committed under `Fixtures/stores/format-7/los-angeles-synced/`:
/// the store of format 6 beside it, migrated (its priority rebuild finished) and its
/// activeEnergy caches refreshed. Every later release must open it read-only (format 7)
/// and writable (migrated), find every sample of the format-5 CSVs and answer the merged
/// curves under its order; once migrated, samples with ids land in it and go by id.
/// Never regenerated.
@Suite("The plain store of format 7")
struct FormatSevenSyncedStoreTests {
    static let fixture = "stores/format-7/los-angeles-synced"

    /// Checks that `store` holds the samples of the format-5 CSVs (`expected`) under the
    /// format-6 order, and answers activeEnergy's merged curves as the slow merge does.
    static func expectSamplesAndCurves(
        of store: TrendStore, expected: [FormatFiveStoreTests.Identity: Double]
    ) throws {
        #expect(try store.sourcePriority(of: "activeEnergy") == FormatSixStoreTests.order)
        #expect(try FormatFiveStoreTests.samples(of: store) == expected)
        try FormatFiveStoreTests.expectMergedCurves(
            of: store, samples: expected, order: FormatSixStoreTests.order)
    }

    @Test("it opens read-only and writable, answers as before, and takes samples with ids")
    func opensAndAnswers() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let expected = try FormatFiveStoreTests.expectedSamples()
            for options in [StoreOptions().readingOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == (options.readOnly ? 7 : 9))
                #expect(
                    try store.appliedMigrations().last
                        == (options.readOnly
                            ? "0007-store-bound-sealing" : "0009-whole-day-versions"))
                #expect(try PriorityRebuildTests.rebuilding(store) == false)
                try Self.expectSamplesAndCurves(of: store, expected: expected)
                #expect(try store.cacheEntries().count == 8)
                #expect(try await store.verify().isHealthy)
                await store.close()
            }
            let store = try TrendStore(directory: copy)
            let id = SampleID(UUID())
            let late = Sample(
                startMilliseconds: 1_773_400_000_000, endMilliseconds: 1_773_400_060_000, value: 3)
            try await store.write([late], ids: [id], to: "activeEnergy", unit: "kcal")
            #expect(try await store.deleteSamples(withIDs: [id], from: "activeEnergy") == 1)
            #expect(try FormatFiveStoreTests.samples(of: store) == expected)
            #expect(try await store.verify().isHealthy)
            await store.close()
        }
    }
}
