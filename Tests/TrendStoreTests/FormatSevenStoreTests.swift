#if Encryption
    import Foundation
    import Testing
    import TestSupport

    @testable import TrendStore

    /// The encrypted store of format 7 committed under
    /// `Fixtures/stores/format-7/los-angeles-encrypted/`: the format-1 source file imported
    /// under the test key `key.hex`, with activeEnergy's caches refreshed and the two
    /// typed-cache entries of the format-6 store, every value sealed with its seal id. Every
    /// later release must open it read-only and writable and find every sample, cached
    /// aggregate and typed-cache entry. Never regenerated.
    @Suite("The encrypted store of format 7")
    struct FormatSevenStoreTests {
        static let fixture = "stores/format-7/los-angeles-encrypted"

        @Test("it opens read-only and writable, every value bound to its seal id and found")
        func opensAndAnswers() async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(
                    Self.fixture, in: directory.url)
                let readOnly = options.readingOnly
                for options in [readOnly, options] {
                    let store = try TrendStore(directory: copy, options: options)
                    #expect(try store.formatVersion == (options.readOnly ? 7 : 9))
                    #expect(
                        try store.engine.read { try store.engine.tables.meta.sealID(in: $0) }?
                            .count == 16)
                    #expect(
                        try StoreSealTests.schemes(of: store)
                            == [ValueSealer.boundScheme])
                    try await FormatSixEncryptedStoreTests.expectContents(of: store)
                    await store.close()
                }
            }
        }
    }
#endif
