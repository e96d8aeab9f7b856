import Foundation
import Testing
import TrendStoreGenerator
import TrendStoreTesting

@testable import TrendStore

/// The bytes of a change set: they read back as the set, split into parts that apply as the
/// whole does, stay near the size the store keeps, and damaged bytes are an error, never a
/// trap.
@Suite("Change-set bytes")
struct ChangeSetBytesTests {
    /// A store with two sources, a priority order and a deletion, and its feed from nil.
    static func sampleChanges(days: Int = 3) async throws -> (TemporaryStore, ChangeSet) {
        let temporary = try TemporaryStore()
        var random = SeededGenerator(seed: 5_401)
        let start: Int64 = 1_780_000_000_000
        for source in ["Watch", "Ring"] {
            let samples = (0..<Int64(days * 1440)).map { minute in
                Sample(
                    startMilliseconds: start + minute * 60_000
                        + Int64.random(in: 0..<900, using: &random),
                    endMilliseconds: start + (minute + 1) * 60_000,
                    value: Double(Int.random(in: 0...4000, using: &random)) / 1000)
            }
            try await temporary.store.write(samples, to: "energy", unit: "kcal", source: source)
        }
        // A phone's samples with ids (a HealthKit mirror's), one of them deleted by its id.
        let phone = (0..<Int64(days * 24)).map { hour in
            Sample(
                startMilliseconds: start + hour * 3_600_000,
                endMilliseconds: start + hour * 3_600_000 + 600_000, value: Double(hour))
        }
        let ids = phone.map { _ in
            SampleID(
                UUID(
                    uuid: (0..<16).reduce(into: UUID().uuid) { uuid, index in
                        withUnsafeMutableBytes(of: &uuid) {
                            $0[index] = UInt8.random(in: 0...255, using: &random)
                        }
                    }))
        }
        try await temporary.store.write(
            phone, ids: ids, to: "energy", unit: "kcal", source: "Phone")
        try await temporary.store.deleteSamples(withIDs: [ids[5]], from: "energy")
        try await temporary.store.setSourcePriority(["Ring"], for: "energy")
        try await temporary.store.deleteSamples(
            of: "energy", from: Date(milliseconds: start), to: Date(milliseconds: start + 3_600_000)
        )
        return (temporary, try temporary.store.changes(since: nil))
    }

    @Test(
        "a change set reads back as itself; its parts, applied in any order, do what the whole does"
    )
    func roundTripAndParts() async throws {
        let (_, changes) = try await Self.sampleChanges()
        let bytes = try changes.encoded()
        #expect(try ChangeSet(encoded: bytes) == changes)
        let parts = try changes.parts(maximumBytes: 4_000, maximumRecords: 3)
        #expect(parts.count > 10)
        for part in parts {
            #expect(try part.encoded().count <= 4_000)
            #expect(part.written.count + part.deletions.count + part.priorities.count <= 3)
        }
        #expect(parts.reduce(0) { $0 + $1.sampleCount } == changes.sampleCount)
        let whole = try TemporaryStore()
        let pieces = try TemporaryStore()
        try await whole.store.apply(changes)
        for part in parts.reversed() {
            try await pieces.store.apply(try ChangeSet(encoded: try part.encoded()))
        }
        // The ids travel in the parts too.
        #expect(changes.writtenSampleIDs.count == 24 * 3 - 2)
        #expect(
            Set(try pieces.store.changes(since: nil).writtenSampleIDs)
                == Set(changes.writtenSampleIDs))
        #expect(changes.deletedSampleIDs.count == 1)
        for source in ["Watch", "Ring", "Phone"] {
            #expect(
                try pieces.store.samples(
                    of: "energy", from: .distantPast, to: .distantFuture, source: source)
                    == whole.store.samples(
                        of: "energy", from: .distantPast, to: .distantFuture, source: source))
        }
        #expect(try pieces.store.sourcePriority(of: "energy") == ["Ring"])
    }

    @Test("a day of minute samples costs at most twice what the store's blocks take for it")
    func size() async throws {
        let (_, changes) = try await Self.sampleChanges(days: 1)
        var day = changes
        day.written = changes.written.filter { $0.source == "Watch" }
        day.deletions = []
        day.priorities = []
        let samples = day.written[0].samples
        let blockBytes = try BlockCodec.encode(samples[...], zlib: ZlibCodec()).count
        let setBytes = try day.encoded().count
        #expect(setBytes <= 2 * blockBytes, "\(setBytes) bytes against \(blockBytes)")
        print(
            "a day of \(samples.count) minute samples: \(setBytes) bytes as a change set, \(blockBytes) as a block"
        )
    }

    @Test(
        "damaged, truncated and random bytes are an error naming why, never a trap",
        arguments: 0..<4)
    func damagedBytes(seed: Int) async throws {
        let (_, changes) = try await Self.sampleChanges(days: 1)
        let good = [UInt8](try changes.encoded())
        var random = SeededGenerator(seed: UInt64(seed) &+ 5_402)
        func expectRefusedOrValid(_ bytes: [UInt8]) {
            do {
                let decoded = try ChangeSet(encoded: Data(bytes))
                // Bytes that decode are a change set the store checks before applying.
                _ = decoded.sampleCount
            } catch let error as StoreError {
                #expect(error.code == "damaged-change-set")
            } catch {
                Issue.record("not a StoreError: \(error)")
            }
        }
        for _ in 0..<300 {
            var bytes = good
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            case 1:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(
                    in: 1...255, using: &random)
            case 2:
                bytes = (0..<Int.random(in: 0..<2_000, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            default:
                // Past the checksum: damage the body and seal it with a fresh checksum.
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 6..<(bytes.count - 4), using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
                bytes.removeLast(4)
                let checksum = bytes.withUnsafeBytes { CRC32C.checksum($0) }
                withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
            }
            expectRefusedOrValid(bytes)
        }
        #expect(throws: StoreError.self) {
            try ChangeSet(encoded: Data(good.prefix(good.count - 1)))
        }
    }
}
