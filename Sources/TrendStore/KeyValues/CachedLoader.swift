/// Loads remote data through a ``TypedCache``: the cache when it is fresh, the network otherwise.
///
/// - A fresh entry is returned without fetching.
/// - A missing, expired or unreadable entry is fetched, stored and returned.
/// - A failed fetch throws, even when an expired entry exists, unless you pass
///   `staleOnError: true`: then the expired entry is returned instead.
/// - Concurrent loads of one key share one fetch.
///
/// ```swift
/// let loader = CachedLoader(cache: weatherCache) { location in try await api.weather(at: location) }
/// let weather = try await loader.load(here)
/// ```
public actor CachedLoader<Key: Codable & Hashable & Sendable, Value: Codable & Sendable> {
    /// The cache the loader reads and fills.
    public nonisolated let cache: TypedCache<Key, Value>
    private let fetch: @Sendable (Key) async throws -> Value
    private var inFlight: [Key: Task<Value, any Error>] = [:]

    /// Creates a loader that fetches with `fetch` what `cache` does not hold fresh.
    public init(
        cache: TypedCache<Key, Value>, fetch: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.cache = cache
        self.fetch = fetch
    }

    /// The value for `key`, from the cache when fresh, else fetched and cached.
    ///
    /// - Parameters:
    ///   - key: What to load.
    ///   - staleOnError: Return an expired cached value when the fetch fails.
    /// - Throws: The fetch's error when it fails and no stale value may be served.
    public func load(_ key: Key, staleOnError: Bool = false) async throws -> Value {
        let cached: CacheLookup<Value>
        do {
            cached = try cache.lookup(key)
        } catch {
            cached = .missing  // a cache that cannot be read is a cache that is empty
        }
        if case .fresh(let value) = cached { return value }
        let task: Task<Value, any Error>
        if let running = inFlight[key] {
            task = running
        } else {
            let fetch = self.fetch
            let cache = self.cache
            task = Task {
                let value = try await fetch(key)
                try? await cache.insert(value, forKey: key)
                return value
            }
            inFlight[key] = task
        }
        do {
            let value = try await task.value
            inFlight[key] = nil
            return value
        } catch {
            inFlight[key] = nil
            if staleOnError, case .expired(let stale) = cached { return stale }
            throw error
        }
    }
}
