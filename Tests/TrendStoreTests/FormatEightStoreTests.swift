import Foundation
import Testing
import TestSupport

import TrendStore

/// The store of format 8 committed under `Fixtures/stores/format-8/los-angeles-ids/`: the
/// plain store of format 7 beside it, migrated, then three `steps` samples written with ids
/// under the external anchor `healthkit` = "1" (one write of `[SeriesSamples]` with ids and an
/// anchor), and the second deleted by its id under "2" (a write that deletes by id).
/// Every later release must open it read-only and writable, find the format-5 samples under
/// their order, the two steps left and their ids, and the anchor. Never regenerated.
@Suite("The store of format 8")
struct FormatEightStoreTests {
    static let fixture = "stores/format-8/los-angeles-ids"

    /// The steps written with ids, a minute each from 2026-03-12T07:06:40Z.
    static let steps = (0..<3).map { index in
        Sample(
            startMilliseconds: 1_773_299_200_000 + Int64(index) * 60_000,
            endMilliseconds: 1_773_299_260_000 + Int64(index) * 60_000, value: Double(10 + index))
    }

    /// The id of `steps[index]`.
    static func id(_ index: Int) throws -> SampleID { try SampleID("hk-step-\(index)") }

    @Test("it opens read-only and writable, answers as before, and finds its samples by id")
    func opensAndAnswers() async throws {
        try await withTemporaryDirectory { directory in
            let copy = try Fixtures.copyOfStore(Self.fixture, in: directory.url)
            let expected = try FormatFiveStoreTests.expectedSamples()
            for options in [StoreOptions().readingOnly, StoreOptions()] {
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == (options.readOnly ? 8 : 9))
                #expect(
                    try store.appliedMigrations().last
                        == (options.readOnly ? "0008-sample-ids" : "0009-whole-day-versions"))
                try FormatSevenSyncedStoreTests.expectSamplesAndCurves(
                    of: store, expected: expected)
                #expect(
                    try store.samples(of: "steps", from: .distantPast, to: .distantFuture)
                        == [Self.steps[0], Self.steps[2]])
                #expect(try store.externalAnchor(named: "healthkit") == Data("2".utf8))
                #expect(try await store.verify().isHealthy)
                await store.close()
            }
            let store = try TrendStore(directory: copy)
            #expect(try await store.deleteSamples(withIDs: [Self.id(1)], from: "steps") == 0)
            #expect(try await store.deleteSamples(withIDs: [Self.id(2)], from: "steps") == 1)
            #expect(
                try store.samples(of: "steps", from: .distantPast, to: .distantFuture)
                    == [Self.steps[0]])
            #expect(try await store.verify().isHealthy)
            await store.close()
        }
    }
}
