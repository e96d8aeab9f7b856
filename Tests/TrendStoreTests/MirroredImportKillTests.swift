import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
import TrendStoreTesting

import TrendStore

/// A mirrored import (HealthKit's anchored query, a server's cursor) keeps its anchor in the
/// commit of the samples it produced and of the deletions by id it reported: killed at any
/// moment and resumed from the stored anchor, it loses no batch and writes none twice.
@Suite("A mirrored import killed and resumed")
struct MirroredImportKillTests {
    static let batches = 400
    static let size: Int64 = 50

    /// Checks that the store holds exactly the batches up to its anchor, each whole, and
    /// returns that anchor.
    static func committedBatches(in directory: URL) async throws -> Int {
        let store = try TrendStore(directory: directory)
        let anchor =
            try store.externalAnchor(named: "mirror").flatMap {
                Int(String(decoding: $0, as: UTF8.self))
            } ?? 0
        let samples =
            try store.unit(of: "energy") == nil
            ? [] : try store.samples(of: "energy", from: .distantPast, to: .distantFuture)
        var perBatch: [Int: Int] = [:]
        for sample in samples { perBatch[Int(sample.value), default: 0] += 1 }
        #expect(perBatch.keys.sorted() == Array(stride(from: 1, through: anchor, by: 1)))
        // Each batch deleted, by its id, the first sample of the batch before it.
        #expect(perBatch.allSatisfy { $0.value == Int(size) - ($0.key < anchor ? 1 : 0) })
        #expect(try await store.verify().isHealthy)
        await store.close()
        return anchor
    }

    @Test(
        "100 SIGKILLs of a mirrored import: the samples are always exactly the batches its anchor names",
        .serialized, arguments: 0..<20)
    func killAndResume(trial: Int) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            var random = SeededGenerator(seed: UInt64(trial) &+ 5_400)
            var anchors: [Int] = []
            for _ in 0..<5 {
                let peer = try PeerProcess(store: url)
                peer.begin("mirror energy \(Self.batches) \(Self.size)")
                usleep(UInt32.random(in: 0..<40_000, using: &random))
                peer.kill()
                anchors.append(try await Self.committedBatches(in: url))
            }
            let peer = try PeerProcess(store: url)
            try peer.send("mirror energy \(Self.batches) \(Self.size)")
            peer.quit()
            #expect(try await Self.committedBatches(in: url) == Self.batches)
            print("mirror kill trial \(trial): anchors after kills \(anchors), then finished whole")
        }
    }
}

/// A change set applied a block a transaction by another process killed at a random moment:
/// the store is healthy and holds a subset of the set's samples, unchanged; applying the
/// whole set again completes it, and once more changes nothing.
@Suite("An apply killed and resumed")
struct ApplyKillTests {
    static let count = 12 * 8_192

    /// A set of `count` samples in a file, and how long the peer takes to apply it.
    static let prepared: (samples: [Sample], changes: ChangeSet, file: URL, seconds: Double)? = {
        let start: Int64 = 1_700_000_000_000
        let samples = (0..<Int64(count)).map {
            Sample(
                startMilliseconds: start + $0 * 60_000,
                endMilliseconds: start + $0 * 60_000 + 60_000,
                value: Double($0 % 97))
        }
        guard let directory = try? TemporaryDirectory(), let source = try? TemporaryStore() else {
            return nil
        }
        let file = directory.url.appendingPathComponent("set.changes")
        let written = DispatchSemaphore(value: 0)
        Task {
            _ = try? await source.store.write(samples, to: "energy", unit: "kcal")
            written.signal()
        }
        written.wait()
        guard let changes = try? source.store.changes(since: nil),
            (try? changes.encoded().write(to: file)) != nil,
            let peer = try? PeerProcess(store: directory.url.appendingPathComponent("timed"))
        else { return nil }
        let began = Date()
        _ = try? peer.send("apply \(file.path)")
        peer.quit()
        return (samples, changes, file, Date().timeIntervalSince(began))
    }()

    @Test(
        "killed during a batched apply, the store holds whole parts; applying again finishes",
        .serialized, arguments: 0..<8)
    func killDuringApply(trial: Int) async throws {
        let (samples, changes, file, seconds) = try #require(Self.prepared)
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("target")
            let peer = try PeerProcess(store: url)
            var random = SeededGenerator(seed: UInt64(trial) &+ 5_403)
            peer.begin("apply \(file.path)")
            usleep(UInt32(Double.random(in: 0...1, using: &random) * seconds * 1e6))
            peer.kill()

            let target = try TrendStore(directory: url)
            #expect(try await target.verify().isHealthy)
            let held =
                try target.unit(of: "energy") == nil
                ? [] : try target.samples(of: "energy", from: .distantPast, to: .distantFuture)
            let expected = Set(samples)
            #expect(held.allSatisfy(expected.contains))
            #expect(held.count % 8_192 == 0)
            let summary = try await target.apply(changes)
            #expect(summary.samplesWritten == Self.count - held.count)
            #expect(
                try target.samples(of: "energy", from: .distantPast, to: .distantFuture) == samples)
            #expect(try await target.apply(changes).changedNothing)
            await target.close()
            print(
                "apply kill trial \(trial): \(held.count) of \(Self.count) samples held after the kill"
            )
        }
    }
}
