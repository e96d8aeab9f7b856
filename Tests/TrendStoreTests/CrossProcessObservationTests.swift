import Foundation
import Synchronization
import Testing
import TestSupport
import TrendStore
import TrendStoreTesting

/// Live values and the typed cache against another process's commits: every commit is seen,
/// whatever the poll and however the writer syncs.
///
/// The peer commits one sample at a time and the test waits for the observer to show each
/// before the next, so a commit that is never shown is counted, not hidden by the next one.
/// `TRENDSTORE_OBSERVATION_COMMITS` sets the commits of every trial (the long mode: 1,000).
@Suite("Observing another process's commits", .serialized)
struct CrossProcessObservationTests {
    static let day: Int64 = 1_772_582_400_000  // 2026-03-04 00:00Z

    /// Commits per trial: 1,000 where the poll is quick, fewer at the slow polls (each commit
    /// waits for a poll), unless the environment asks for more.
    static func commits(poll: Int) -> Int {
        if let asked = Int(
            ProcessInfo.processInfo.environment["TRENDSTORE_OBSERVATION_COMMITS"] ?? "")
        {
            return asked
        }
        return poll <= 5 ? 1_000 : poll <= 20 ? 200 : 40
    }

    /// Whether `condition` comes to hold before the observer, polling every `poll` ms, has
    /// had every chance: at least 2 s and 20 polls, and 5,000 wake-ups of this task on the
    /// pool the observer's task shares (another suite's synchronous work can hold every
    /// thread of it for many seconds, and a missed commit stays missed until the next).
    static func eventually(poll: Int, _ condition: () -> Bool) async throws -> Bool {
        let began = ContinuousClock.now
        let patience = Duration.milliseconds(max(2_000, 20 * poll))
        var wakeUps = 0
        while !condition() {
            let waited = ContinuousClock.now - began
            if (waited > patience && wakeUps >= 5_000) || waited > .seconds(300) { return false }
            try await Task.sleep(for: .microseconds(200))
            wakeUps += 1
        }
        return true
    }

    @Test(
        "observe yields the value of every commit of another process",
        arguments: ["full", "normal"], [1, 5, 20, 100])
    func everyCommitYielded(durability: String, poll: Int) async throws {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        try await withTemporaryStore(options: options) { store, directory in
            try await store.write(
                [Sample(startMilliseconds: Self.day, endMilliseconds: Self.day, value: 0)],
                to: "e", unit: "kcal")
            let peer = try PeerProcess(store: directory, durability: durability)
            defer { peer.quit() }
            let latest = Mutex<Double>(-1)
            let now = Date(milliseconds: Self.day + 86_399_000)
            let observer = Task {
                for try await total in store.observe(
                    every: .milliseconds(poll), { try $0.todayCurve(of: "e", now: now).total })
                {
                    latest.withLock { $0 = total }
                }
            }
            defer { observer.cancel() }
            // Commits after the observation began: its first value (a loaded machine may
            // start the observer's task late).
            let began = ContinuousClock.now + .seconds(60)
            while latest.withLock({ $0 }) < 0 && ContinuousClock.now < began {
                try await Task.sleep(for: .milliseconds(1))
            }
            let count = Self.commits(poll: poll)
            var missed: [Int] = []
            for k in 1...count {
                let start = Self.day + Int64(k) * 60_000
                try peer.send("write e \(start) \(start + 60_000) 1")
                if try await !Self.eventually(poll: poll, { latest.withLock { $0 } == Double(k) }) {
                    missed.append(k)
                }
                if missed.count == 3 { break }
            }
            #expect(
                missed.isEmpty,
                "\(missed.count) of \(count) commits never yielded: \(missed.prefix(10))")
        }
    }

    @Test(
        "changes(of:) yields after every commit of another process",
        arguments: ["full", "normal"], [1, 20])
    func everyChangeYielded(durability: String, poll: Int) async throws {
        try await withTemporaryStore { store, directory in
            try await store.write(
                [Sample(startMilliseconds: Self.day, endMilliseconds: Self.day, value: 0)],
                to: "e", unit: "kcal")
            let peer = try PeerProcess(store: directory, durability: durability)
            defer { peer.quit() }
            let changes = Mutex(0)
            let observer = Task {
                for try await _ in store.changes(of: ["e"], every: .milliseconds(poll)) {
                    changes.withLock { $0 += 1 }
                }
            }
            defer { observer.cancel() }
            let count = Self.commits(poll: poll) / 2
            // A first commit, waited for long enough that the stream has taken its first
            // counts (a commit before that is part of them, not a change).
            try peer.send("write e \(Self.day) \(Self.day + 1) 1")
            let settled = ContinuousClock.now + .seconds(10)
            while changes.withLock({ $0 }) == 0 && ContinuousClock.now < settled {
                try await Task.sleep(for: .milliseconds(1))
            }
            changes.withLock { $0 = 0 }
            var missed = 0
            for k in 1...count {
                let start = Self.day + Int64(k) * 60_000
                try peer.send("write e \(start) \(start + 60_000) 1")
                if try await !Self.eventually(poll: poll, { changes.withLock { $0 } >= k }) {
                    missed += 1
                    changes.withLock { $0 = k }
                }
                if missed == 3 { break }
            }
            #expect(missed == 0, "\(missed) of \(count) commits never yielded")
        }
    }

    @Test(
        "a typed cache read in a loop is never staler than the store while another process inserts",
        arguments: ["full", "normal"])
    func typedCacheNeverStale(durability: String) async throws {
        try await withTemporaryStore { store, directory in
            let cache = try TypedCache<String, Int>(store: store, namespace: "n")
            let peer = try PeerProcess(store: directory, durability: durability)
            defer { peer.quit() }
            let reading = Atomic(true)
            // Reads as fast as it can, so some read falls inside each of the peer's commits.
            let loop = Thread {
                while reading.load(ordering: .relaxed) { _ = try? cache.value(forKey: "k") }
            }
            loop.start()
            defer { reading.store(false, ordering: .relaxed) }
            var stale: [Int] = []
            for k in 1...300 {
                try peer.send("cache n k \(k)")
                let value = try cache.value(forKey: "k")
                if value != k { stale.append(k) }
            }
            #expect(
                stale.isEmpty, "\(stale.count) reads staler than the store: \(stale.prefix(10))")
        }
    }
}
