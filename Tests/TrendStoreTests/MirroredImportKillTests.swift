import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
import TrendStoreTesting

@testable import TrendStore

/// A mirrored import (HealthKit's anchored query, a server's cursor) keeps its anchor in the
/// commit of the samples it produced: killed at any moment and resumed from the stored
/// anchor, it loses no batch and writes none twice.
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
        #expect(perBatch.values.allSatisfy { $0 == Int(size) })
        #expect(try await store.verify().isHealthy)
        await store.close()
        return anchor
    }

    @Test(
        "100 SIGKILLs of a mirrored import: the samples are always exactly the batches its anchor names",
        .serialized, arguments: 0..<20)
    func killAndResume(trial: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
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
