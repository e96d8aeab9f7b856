import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TrendStore

/// The `async` forms of the typed cache's writes, `backup` and `verify` wait off the caller's
/// thread and do what the synchronous forms do.
@Suite("async forms")
struct BackgroundFormsTests {
    @Test("a typed-cache insert waiting for the writer lock leaves the main actor free")
    func insertWaitsOffTheMainActor() async throws {
        try await withTemporaryStore { store, _ in
            let cache = try TypedCache<String, Int>(store: store, namespace: "n")
            // Another thread takes LMDB's writer lock and keeps it for a second.
            let holding = Atomic(false)
            let released = Atomic(false)
            let engine = store.engine
            Thread {
                try? engine.write { _, _ in
                    holding.store(true, ordering: .sequentiallyConsistent)
                    usleep(1_000_000)
                    released.store(true, ordering: .sequentiallyConsistent)
                }
            }.start()
            while !holding.load(ordering: .sequentiallyConsistent) { usleep(1_000) }

            let insert = Task { @MainActor in try await cache.insert(1, forKey: "a") }
            // The insert waits for the lock now. A blocking insert would hold the main actor
            // until the lock is released, so this would run after it.
            let ranWhileHeld = await MainActor.run {
                !released.load(ordering: .sequentiallyConsistent)
            }
            #expect(ranWhileHeld)
            try await insert.value
            #expect(try cache.value(forKey: "a") == 1)
            try await cache.removeValue(forKey: "a")
            #expect(try cache.value(forKey: "a") == nil)
            try await cache.insert(2, forKey: "b")
            try await cache.removeAll()
            #expect(try cache.count == 0)
        }
    }

    @Test("await verify() and backup(to:) give what the synchronous forms give")
    func verifyAndBackup() async throws {
        try await withTemporaryStore { store, directory in
            let samples = (0..<500).map {
                Sample(
                    startMilliseconds: Int64($0) * 60_000,
                    endMilliseconds: Int64($0) * 60_000 + 57_000, value: Double($0 % 7))
            }
            try await store.write(samples, to: "e", unit: "kcal")
            let report = try await store.verify()
            #expect(report.isHealthy && report.samplesChecked == 500)
            let synchronous = try { () throws -> VerificationReport in try store.verify() }()
            #expect(report == synchronous)
            let copy = directory.deletingLastPathComponent()
                .appendingPathComponent("copy-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: copy) }
            try await store.backup(to: copy)
            let reopened = try await TrendStore.open(directory: copy)
            #expect(
                try reopened.samples(of: "e", from: .distantPast, to: .distantFuture) == samples)
            #expect(try await reopened.verify().isHealthy)
            await reopened.close()
        }
    }
}
