#if Encryption
    import Foundation
    import Testing
    import TestSupport

    @testable import TrendStore

    /// The encrypted store of format 6 committed under
    /// `Fixtures/stores/format-6/los-angeles-encrypted/`: the format-1 source file imported
    /// under the test key `key.hex`, with activeEnergy's caches refreshed and two typed-cache
    /// entries. Every later release must open it read-only as it is and writable after its
    /// own migrations, and find every sample, cached aggregate and typed-cache entry.
    /// Never regenerated.
    @Suite("The encrypted store of format 6")
    struct FormatSixEncryptedStoreTests {
        static let fixture = "stores/format-6/los-angeles-encrypted"

        @Test(
            "it opens read-only as format 6 and writable as the current format, every value found")
        func opensAndAnswers() async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(
                    Self.fixture, in: directory.url)
                let readOnly = options.readingOnly
                for (options, format) in [(readOnly, 6), (options, Int(StorageFormat.current))] {
                    let store = try TrendStore(directory: copy, options: options)
                    #expect(try store.formatVersion == format)
                    try await Self.expectContents(of: store)
                    await store.close()
                }
            }
        }

        /// Checks `store` holds the fixture's samples (against the source file read by plain
        /// splitting), its eight cached aggregates and its two typed-cache entries, and verifies.
        static func expectContents(of store: TrendStore) async throws {
            let source = try independentlyReadSamples(Fixtures.path("stores/format-1/source.csv"))
            for (name, samples) in source {
                #expect(
                    try store.samples(of: name, from: .distantPast, to: .distantFuture) == samples)
            }
            let keys = try store.cacheEntries().map(\.key)
            #expect(keys.count == 8)
            #expect(keys.contains("v2/today/activeEnergy/America%2FLos_Angeles"))
            let cache = try TypedCache<String, [Double]>(
                store: store, namespace: "widget/figures", entryLifetime: 1e9)
            #expect(try cache.value(forKey: "today") == [1.5, 2.5, 713])
            #expect(try cache.value(forKey: "goal/move") == [42])
            #expect(try cache.value(forKey: "missing") == nil)
            #expect(try await store.verify().isHealthy)
        }
    }
#endif
