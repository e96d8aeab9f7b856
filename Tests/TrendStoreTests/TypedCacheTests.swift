import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TrendStore

private struct Weather: Codable, Equatable, Sendable {
    var temperature: Double
    var condition: String
}

private struct Location: Codable, Hashable, Sendable {
    var latitude: Double
    var longitude: Double
}

private struct FetchFailed: Error, Equatable {}

/// A fake remote service that counts its calls.
private final class FakeAPI: Sendable {
    private let state = Mutex(
        (calls: 0, fails: false, value: Weather(temperature: 20, condition: "sunny")))
    var calls: Int { state.withLock { $0.calls } }
    func set(fails: Bool) { state.withLock { $0.fails = fails } }
    func set(_ value: Weather) { state.withLock { $0.value = value } }

    func fetch(_: Location) async throws -> Weather {
        let (fails, value) = state.withLock { state -> (Bool, Weather) in
            state.calls += 1
            return (state.fails, state.value)
        }
        try await Task.sleep(for: .milliseconds(20))
        if fails { throw FetchFailed() }
        return value
    }
}

private let here = Location(latitude: -37.8, longitude: 144.9)

private func withClockedStore(_ body: (TrendStore, ManualClock) async throws -> Void) async throws {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    var options = StoreOptions()
    options.clock = clock.reading
    try await withTemporaryStore(options: options) { store, _ in try await body(store, clock) }
}

@Suite("Typed key-value cache")
struct TypedCacheTests {
    @Test(
        "a hot read is answered from memory, never staler than the store, and counts for eviction"
    )
    func memoryTier() async throws {
        try await withClockedStore { (store, clock) async throws in
            let cache = try TypedCache<Int, String>(
                store: store, namespace: "numbers", maximumEntryCount: 2)
            let other = try TypedCache<Int, String>(store: store, namespace: "numbers")
            try await cache.insert("one", forKey: 1)
            #expect(try cache.value(forKey: 1) == "one")  // read from LMDB, kept
            var hot = ContinuousClock.Duration.zero
            for _ in 0..<1_000 {
                let begin = ContinuousClock.now
                _ = try cache.value(forKey: 1)
                hot += ContinuousClock.now - begin
            }
            print("typed cache, hot read from memory: \(hot / 1_000)")
            // Another cache (as another process would) replaces the entry: the next read sees it.
            try await other.insert("uno", forKey: 1)
            #expect(try cache.value(forKey: 1) == "uno")
            // Reads answered from memory count as uses: 1's last read came from memory, after
            // 2's from LMDB, so 2 is evicted (without counting it, 1 would be).
            clock.set(clock.now.addingTimeInterval(1))
            try await cache.insert("two", forKey: 2)
            clock.set(clock.now.addingTimeInterval(1))
            _ = try cache.value(forKey: 1)  // from LMDB
            clock.set(clock.now.addingTimeInterval(1))
            _ = try cache.value(forKey: 2)  // from LMDB, later
            clock.set(clock.now.addingTimeInterval(1))
            _ = try cache.value(forKey: 1)  // from memory, latest
            clock.set(clock.now.addingTimeInterval(1))
            try await cache.insert("three", forKey: 3)
            #expect(try cache.value(forKey: 2) == nil)
            #expect(try cache.value(forKey: 1) == "uno")
            #expect(try cache.value(forKey: 3) == "three")
        }
    }

    @Test("values round-trip; expired entries are never returned")
    func lifetime() async throws {
        try await withClockedStore { (store, clock) async throws in
            let cache = try TypedCache<Location, Weather>(
                store: store, namespace: "weather", entryLifetime: 600)
            try await cache.insert(Weather(temperature: 18, condition: "rain"), forKey: here)
            #expect(try cache.value(forKey: here) == Weather(temperature: 18, condition: "rain"))
            clock.set(clock.now.addingTimeInterval(599))
            #expect(try cache.value(forKey: here) != nil)
            clock.set(clock.now.addingTimeInterval(1))
            #expect(try cache.value(forKey: here) == nil)
            guard case .expired(let stale) = try cache.lookup(here) else {
                Issue.record("expected an expired entry"); return
            }
            #expect(stale.condition == "rain")
        }
    }

    @Test("the count limit evicts the least recently used entry, counting reads")
    func countLimit() async throws {
        try await withClockedStore { (store, clock) async throws in
            let cache = try TypedCache<Int, String>(
                store: store, namespace: "numbers", maximumEntryCount: 3)
            for key in 1...3 {
                try await cache.insert("\(key)", forKey: key)
                clock.set(clock.now.addingTimeInterval(1))
            }
            _ = try cache.value(forKey: 1)  // 1 is now more recent than 2 and 3
            clock.set(clock.now.addingTimeInterval(1))
            try await cache.insert("4", forKey: 4)
            #expect(try cache.value(forKey: 2) == nil)
            #expect(try [1, 3, 4].map { try cache.value(forKey: $0) } == ["1", "3", "4"])
            #expect(try cache.count == 3)
        }
    }

    @Test("the byte limit evicts the oldest entries until the rest fit")
    func byteLimit() async throws {
        try await withClockedStore { (store, clock) async throws in
            let cache = try TypedCache<Int, String>(
                store: store, namespace: "blobs", maximumEntryCount: 100, maximumBytes: 250)
            for key in 1...5 {
                // 102 bytes of JSON each
                try await cache.insert(String(repeating: "x", count: 100), forKey: key)
                clock.set(clock.now.addingTimeInterval(1))
            }
            #expect(
                try (1...5).map { try cache.value(forKey: $0) != nil } == [
                    false, false, false, true, true,
                ])
        }
    }

    @Test("entries persist across reopening, and namespaces are separate")
    func persistence() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let store = try TrendStore(directory: directory.url)
                try await TypedCache<String, Int>(store: store, namespace: "a").insert(
                    1, forKey: "k")
                try await TypedCache<String, Int>(store: store, namespace: "ab").insert(
                    2, forKey: "k")
            }
            let reopened = try TrendStore(directory: directory.url)
            #expect(
                try TypedCache<String, Int>(store: reopened, namespace: "a").value(forKey: "k") == 1
            )
            #expect(
                try TypedCache<String, Int>(store: reopened, namespace: "ab").value(forKey: "k")
                    == 2)
            try await TypedCache<String, Int>(store: reopened, namespace: "a").removeAll()
            #expect(try TypedCache<String, Int>(store: reopened, namespace: "ab").count == 1)
        }
    }

    @Test("collections report when they were written, and a backend's verdicts apply together")
    func validation() async throws {
        try await withClockedStore { (store, clock) async throws in
            let friends = try TypedCache<String, String>(store: store, namespace: "friends")
            let events = try TypedCache<String, String>(store: store, namespace: "events")
            try await friends.insert("Ann", forKey: "1")
            clock.set(clock.now.addingTimeInterval(60))
            try await events.insert("Run club", forKey: "e1")
            let stamps = try store.collectionTimestamps()
            #expect(
                stamps["events"] == clock.now
                    && stamps["friends"] == clock.now.addingTimeInterval(-60))
            try await store.applyValidation([
                "friends": .replace(try friends.encodedItems(["2": "Bo"]), lifetime: 3600),
                "events": .invalidate,
            ])
            #expect(try friends.value(forKey: "1") == nil && friends.value(forKey: "2") == "Bo")
            #expect(try events.count == 0)
        }
    }
}

@Suite("Cache-then-network loader")
struct CachedLoaderTests {
    private func makeLoader(_ store: TrendStore, _ api: FakeAPI) throws
        -> CachedLoader<Location, Weather>
    {
        CachedLoader(cache: try TypedCache(store: store, namespace: "weather", entryLifetime: 600))
        {
            try await api.fetch($0)
        }
    }

    @Test("1. no cache: fetch, and store")
    func noCache() async throws {
        try await withClockedStore { (store, _) async throws in
            let api = FakeAPI()
            let loader = try makeLoader(store, api)
            #expect(try await loader.load(here).condition == "sunny")
            #expect(api.calls == 1)
            #expect(try loader.cache.value(forKey: here) != nil)
        }
    }

    @Test("2. stale cache: fetch")
    func staleCache() async throws {
        try await withClockedStore { (store, clock) async throws in
            let api = FakeAPI()
            let loader = try makeLoader(store, api)
            try await loader.cache.insert(Weather(temperature: 5, condition: "old"), forKey: here)
            clock.set(clock.now.addingTimeInterval(601))
            #expect(try await loader.load(here).condition == "sunny")
            #expect(api.calls == 1)
        }
    }

    @Test("3. fresh cache: no fetch")
    func freshCache() async throws {
        try await withClockedStore { (store, _) async throws in
            let api = FakeAPI()
            let loader = try makeLoader(store, api)
            try await loader.cache.insert(
                Weather(temperature: 5, condition: "cached"), forKey: here)
            #expect(try await loader.load(here).condition == "cached")
            #expect(api.calls == 0)
        }
    }

    @Test("4. cache error: fetch")
    func cacheError() async throws {
        try await withClockedStore { (store, _) async throws in
            let api = FakeAPI()
            let loader = try makeLoader(store, api)
            // An entry whose bytes are not the value type: unreadable, so treated as missing.
            let key =
                Array("weather".utf8) + [0]
                + Array(
                    try {
                        let e = JSONEncoder(); e.outputFormatting = .sortedKeys;
                        return try e.encode(here)
                    }())
            try store.engine.write { txn, _ in
                try txn.put([1, 2, 3], forKey: key, in: store.engine.keyValues.database)
            }
            #expect(try await loader.load(here).condition == "sunny")
            #expect(api.calls == 1)
        }
    }

    @Test("5. fetch fails: error even with a stale cache, unless stale-on-error is asked for")
    func fetchFails() async throws {
        try await withClockedStore { (store, clock) async throws in
            let api = FakeAPI()
            api.set(fails: true)
            let loader = try makeLoader(store, api)
            try await loader.cache.insert(Weather(temperature: 5, condition: "old"), forKey: here)
            clock.set(clock.now.addingTimeInterval(601))
            await #expect(throws: FetchFailed()) { try await loader.load(here) }
            #expect(try await loader.load(here, staleOnError: true).condition == "old")
        }
    }

    @Test("concurrent loads of one key share one fetch")
    func sharedFetch() async throws {
        try await withClockedStore { (store, _) async throws in
            let api = FakeAPI()
            let loader = try makeLoader(store, api)
            let results = try await withThrowingTaskGroup(of: Weather.self) { group in
                for _ in 0..<8 { group.addTask { try await loader.load(here) } }
                return try await group.reduce(into: [Weather]()) { $0.append($1) }
            }
            #expect(results.count == 8 && results.allSatisfy { $0.condition == "sunny" })
            #expect(api.calls == 1)
        }
    }
}

@Suite("Errors a host app can handle")
struct HostErrorTests {
    @Test("a cache with no room, an empty namespace or a negative lifetime is an error, not a trap")
    func cacheConfiguration() async throws {
        try await withTemporaryStore { store, _ in
            for make in [
                { try TypedCache<String, Int>(store: store, namespace: "a", maximumEntryCount: 0) },
                { try TypedCache<String, Int>(store: store, namespace: "a", maximumBytes: 0) },
                { try TypedCache<String, Int>(store: store, namespace: "") },
                { try TypedCache<String, Int>(store: store, namespace: "a", entryLifetime: -1) },
            ] as [() throws -> TypedCache<String, Int>] {
                do {
                    _ = try make()
                    Issue.record("accepted")
                } catch let error as StoreError {
                    #expect(error.code == "invalid-argument.cacheConfiguration")
                }
            }
        }
    }

    @Test("every store error has a stable code and a localized description that names it")
    func codesAndDescriptions() {
        let errors: [StoreError] = [
            .unknownSeries("x", closest: ["y"]), .closed(path: "/s"),
            .invalidArgument(.now, reason: "outside"),
            .unitMismatch(series: "e", stored: "kcal", given: "kJ"),
        ]
        #expect(
            errors.map(\.code) == [
                "unknown-series", "closed", "invalid-argument.now", "unit-mismatch",
            ])
        for error in errors {
            #expect((error as any Error).localizedDescription == error.description)
        }
    }

    @Test("LMDB's failures reach the host as StoreError.storage, with LMDB's code and the path")
    func storageErrors() throws {
        try withTemporaryDirectory { directory in
            try Data(repeating: 0x42, count: 64 << 10).write(
                to: directory.url.appendingPathComponent("data.mdb"))
            do {
                _ = try TrendStore(directory: directory.url)
                Issue.record("a foreign data file was opened")
            } catch let error as StoreError {
                #expect(error.path == directory.url.path)
                #expect(error.systemCode == -30_793)  // MDB_INVALID
                #expect(error.code == "storage")
            }
        }
    }
}
