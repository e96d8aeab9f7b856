import Foundation
import Testing
import TestSupport
import TrendStoreGenerator

import TrendStore

/// The store of format 6 committed under `Fixtures/stores/format-6/`: the store of format 5
/// beside it, migrated, whose priority order of activeEnergy changed to Oura, then the
/// iPhone, and whose rows were rebuilt for two of that series' four days when the process
/// stopped (a kill between two batches leaves the same). Every later release must open it,
/// answer under the new order, and finish the rebuild when it opens it writable.
/// Never regenerated.
@Suite("The store of format 6 (a priority rebuild under way)")
struct FormatSixStoreTests {
    static let fixture = "stores/format-6/los-angeles-rebuilding"
    static let order = ["Oura", "Alice’s iPhone (iPhone)"]

    @Test("it opens mid-rebuild read-only, answers under the new order, and finishes writable")
    func opensAndFinishes() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let expected = try FormatFiveStoreTests.expectedSamples()
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            for options in [readOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == (options.readOnly ? 6 : 9))
                #expect(
                    try store.appliedMigrations().last
                        == (options.readOnly
                            ? "0006-batched-row-rebuilds" : "0009-whole-day-versions"))
                #expect(try PriorityRebuildTests.rebuilding(store) == options.readOnly)
                #expect(try store.sourcePriority(of: "activeEnergy") == Self.order)
                #expect(try FormatFiveStoreTests.samples(of: store) == expected)
                try FormatFiveStoreTests.expectMergedCurves(
                    of: store, samples: expected, order: Self.order)
                #expect(try await store.verify().isHealthy)
                await store.close()
            }
        }
    }
}
