import Foundation
import Testing
import TestSupport
import TrendStore

/// `suspend()` releases every lock and file of the store without ending its observers;
/// `resume()` opens it again and the observers catch up with what another process wrote.
@Suite("Suspension")
struct SuspensionTests {
    static let start: Int64 = 1_772_640_000_000  // 2026-03-04 16:00Z

    static func sample(_ minute: Int64) -> [Sample] {
        let at = start + minute * 60_000
        return [Sample(startMilliseconds: at, endMilliseconds: at + 60_000, value: 1)]
    }

    /// The lines of `/proc/locks` held by this process on `path`'s file, by its inode.
    static func locksHeld(on path: String) throws -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        let inode = ":\(status.st_ino) "
        return try String(contentsOfFile: "/proc/locks", encoding: .utf8)
            .split(separator: "\n").map(String.init)
            .filter { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return fields.contains("\(getpid())") && line.contains(inode)
            }
    }

    /// The paths this process has open under `directory` (the directory itself included).
    static func openFiles(under directory: URL) throws -> [String] {
        let root = directory.resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        }.filter { $0 == root || $0.hasPrefix(root + "/") }
    }

    @Test(
        "suspended, the store holds no lock nor file; another process writes; on resume every observer catches up"
    )
    func anotherProcessWritesWhileSuspended() async throws {
        try await withTemporaryDirectory { directory in
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "UTC")
            options.clock = { Date(milliseconds: Self.start + 3_600_000) }
            let store = try TrendStore(directory: directory.url, options: options)
            try await store.write(Self.sample(0), to: "e", unit: "kcal")
            let peer = try PeerProcess(store: directory.url)
            defer { peer.quit() }
            try peer.send("cache tiles home 1")
            let cache = try TypedCache<String, Int>(store: store, namespace: "tiles")
            #expect(try cache.value(forKey: "home") == 1)

            var totals = store.observe(every: .milliseconds(20)) {
                try $0.todayCurve(of: "e").total
            }
            .makeAsyncIterator()
            var changes = store.changes(of: ["e"], every: .milliseconds(20)).makeAsyncIterator()
            #expect(try await totals.next() == 1)
            let lockPath = directory.url.appending(path: "lock.mdb").path

            store.suspend()
            #expect(store.isSuspended)
            #expect(try Self.locksHeld(on: lockPath).isEmpty)
            #expect(try Self.locksHeld(on: directory.url.path).isEmpty)
            #expect(try Self.openFiles(under: directory.url).isEmpty)
            #expect(throws: StoreError.suspended(path: directory.url.path)) {
                try store.todayCurve(of: "e")
            }
            await #expect(throws: StoreError.suspended(path: directory.url.path)) {
                try await store.write(Self.sample(5), to: "e", unit: "kcal")
            }
            #expect(throws: StoreError.suspended(path: directory.url.path)) {
                try cache.value(forKey: "home")
            }
            // The other process writes meanwhile: a sample and a cache entry.
            try peer.send("write e \(Self.start + 60_000) \(Self.start + 120_000) 2")
            try peer.send("cache tiles home 2")
            try await Task.sleep(for: .milliseconds(100))  // several polls, all quiet

            try store.resume()
            #expect(!store.isSuspended)
            #expect(try !Self.openFiles(under: directory.url).isEmpty)
            #expect(try await totals.next() == 3)
            #expect(try await changes.next()?.series == ["e"])
            #expect(try cache.value(forKey: "home") == 2)
            try await store.write(Self.sample(5), to: "e", unit: "kcal")
            #expect(try await totals.next() == 4)
        }
    }

    @Test("the app's lifecycle notifications suspend and resume a store that opts in, and no other")
    func notifications() throws {
        try withTemporaryDirectory { directory in
            try withTemporaryDirectory { other in
                var options = StoreOptions()
                options.observesSuspensionNotifications = true
                let following = try TrendStore(directory: directory.url, options: options)
                let ignoring = try TrendStore(directory: other.url)
                NotificationCenter.default.post(name: TrendStore.suspendNotification, object: nil)
                #expect(following.isSuspended)
                #expect(!ignoring.isSuspended)
                NotificationCenter.default.post(name: TrendStore.resumeNotification, object: nil)
                #expect(!following.isSuspended)
                #expect(try following.series().isEmpty)
            }
        }
    }

    @Test("a store removed and made again while suspended is not resumed onto the new file")
    func replacedWhileSuspended() async throws {
        try await withTemporaryDirectory { directory in
            let store = try TrendStore(directory: directory.url)
            store.suspend()
            let data = directory.url.appending(path: "data.mdb")
            let copy = directory.url.appending(path: "copy.mdb")
            try FileManager.default.copyItem(at: data, to: copy)
            try FileManager.default.removeItem(at: data)
            try FileManager.default.moveItem(at: copy, to: data)
            #expect(throws: StoreError.self) { try store.resume() }
            #expect(store.isSuspended)
            await store.close()
            #expect(throws: StoreError.closed(path: directory.url.path)) { try store.resume() }
        }
    }
}
