import Foundation
import Testing
import TestSupport

import TrendStore

/// A series name of 255 bytes of `%` (each escaped to three bytes in a cache key) makes a plain
/// store's cache keys longer than an LMDB key may be.
@Suite("Cache keys too long to store")
struct LongCacheKeyTests {
    @Test(
        "caching a figure of such a series is a clear error naming the key in a plain store (an encrypted one blinds it short); queries and writes work",
        arguments: [false, true])
    func longKey(encrypted: Bool) async throws {
        var options = StoreOptions()
        if encrypted { options.encryptionKey = .random() }
        try await withTemporaryStore(options: options) { store, _ in
            let name = String(repeating: "%", count: 255)
            let sample = Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)
            try await store.write([sample], to: name, unit: "kcal")
            let now = Date(milliseconds: 3_600_000)
            if encrypted {
                // An encrypted store blinds each part of a key to a fixed size: it fits.
                #expect(try await store.refreshedToday(of: name, now: now).value.curve.total == 1)
                #expect(try store.cachedToday(of: name) != nil)
            } else {
                do {
                    _ = try await store.refreshedToday(of: name, now: now)
                    Issue.record("the refresh did not fail")
                } catch let error as StoreError {
                    #expect(error.code == .invalidArgument(.cachedFigures), "\(error)")
                    #expect(error.argument == .cachedFigures)
                    #expect(
                        error.reason?.contains("more than the 511 a key may be") == true, "\(error)"
                    )
                }
                #expect(try store.cachedToday(of: name) == nil)
            }
            #expect(try store.todayCurve(of: name, now: now).total == 1)
            try await store.write(
                [Sample(startMilliseconds: 60_000, endMilliseconds: 120_000, value: 2)], to: name,
                unit: "kcal")
            #expect(try store.todayCurve(of: name, now: now).total == 3)
            #expect(try await store.verify().isHealthy)
        }
    }
}
