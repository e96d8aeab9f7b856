import Synchronization

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
    private var inFlight: [Key: SharedFetch<Value>] = [:]

    /// Creates a loader that fetches with `fetch` what `cache` does not hold fresh.
    public init(
        cache: TypedCache<Key, Value>, fetch: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.cache = cache
        self.fetch = fetch
    }

    /// The value for `key`, from the cache when fresh, else fetched and cached.
    ///
    /// A task cancelled before a fetch starts throws `CancellationError` without fetching;
    /// one cancelled while it waits stops waiting and throws `CancellationError`, and the
    /// fetch itself is cancelled once no caller waits for it any more.
    ///
    /// - Parameters:
    ///   - key: What to load.
    ///   - staleOnError: Return an expired cached value when the fetch fails.
    /// - Throws: The fetch's error when it fails and no stale value may be served;
    ///   `CancellationError` when the calling task is cancelled.
    public func load(_ key: Key, staleOnError: Bool = false) async throws -> Value {
        let cached: CacheLookup<Value>
        do {
            cached = try cache.lookup(key)
        } catch {
            cached = .missing  // a cache that cannot be read (or is suspended) is empty
        }
        if case .fresh(let value) = cached { return value }
        try Task.checkCancellation()
        let fetching = inFlight[key] ?? startFetch(key)
        do {
            let value = try await fetching.wait()
            if inFlight[key] === fetching { inFlight[key] = nil }
            return value
        } catch {
            if inFlight[key] === fetching { inFlight[key] = nil }
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            if staleOnError, case .expired(let stale) = cached { return stale }
            throw error
        }
    }

    /// Starts fetching `key` and caching what comes.
    private func startFetch(_ key: Key) -> SharedFetch<Value> {
        let fetch = self.fetch
        let cache = self.cache
        let fetching = SharedFetch<Value> {
            let value = try await fetch(key)
            try? await cache.insert(value, forKey: key)
            return value
        }
        inFlight[key] = fetching
        return fetching
    }
}

/// One fetch shared by the loads of a key waiting for it: each waiter may leave when its
/// task is cancelled, and the fetch is cancelled when the last one leaves.
final class SharedFetch<Value: Sendable>: Sendable {
    private struct State {
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var next = 0
        var outcome: Result<Value, any Error>?
    }
    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts `work`; its outcome goes to every waiter.
    init(_ work: @escaping @Sendable () async throws -> Value) {
        let started = Task { [weak self] in
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            self?.finish(outcome)
        }
        task.withLock { $0 = started }
    }

    /// The fetch's value, or `CancellationError` as soon as the calling task is cancelled.
    func wait() async throws -> Value {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Value, any Error>? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            leave(id)
        }
    }

    /// Ends the wait of `id` with `CancellationError`; the last waiter leaving cancels the fetch.
    private func leave(_ id: Int) {
        let (continuation, last) = state.withLock { state in
            (state.waiters.removeValue(forKey: id), state.waiters.isEmpty && state.outcome == nil)
        }
        continuation?.resume(throwing: CancellationError())
        if last, continuation != nil { task.withLock { $0?.cancel() } }
    }

    /// Hands `outcome` to every waiter.
    private func finish(_ outcome: Result<Value, any Error>) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}
