import Foundation
import Testing
import TrendStoreTesting

@testable import TrendStore

/// Samples that carry ids (HealthKit's UUIDs): written with them, deleted by them, carried
/// in the change feed, applied elsewhere, and costing nothing where there are none.
@Suite("Sample ids")
struct SampleIDTests {
    static let day0: Int64 = 1_780_000_000_000 / TimeGrid.day * TimeGrid.day

    static func minute(_ index: Int64, value: Double = 1, length: Int64 = 60_000) -> Sample {
        let start = day0 + index * 60_000
        return Sample(startMilliseconds: start, endMilliseconds: start + length, value: value)
    }

    static func uuids(_ count: Int) -> [SampleID] { (0..<count).map { _ in SampleID(UUID()) } }

    static func total(_ store: TrendStore, _ series: String = "e") throws -> Double {
        try store.samples(of: series, from: .distantPast, to: .distantFuture)
            .reduce(0) { $0 + $1.value }
    }

    @Test("a write keeps each sample's id, and a deletion by id removes that sample alone")
    func deleteByID() async throws {
        try await withTemporaryStore { store, _ in
            let ids = Self.uuids(3)
            // Two samples share a start: a deletion by id removes one identity, not a start.
            let samples = [
                Self.minute(0), Self.minute(0, value: 2, length: 300_000), Self.minute(5),
            ]
            try await store.write(samples, ids: ids, to: "e", unit: "kcal")
            try await store.write([Self.minute(9, value: 4)], to: "e", unit: "kcal")
            #expect(try Self.total(store) == 8)
            let unknown = SampleID(UUID())
            #expect(
                try await store.deleteSamples(withIDs: [ids[0], unknown, ids[0]], from: "e") == 1)
            #expect(try Self.total(store) == 7)
            #expect(
                try store.samples(of: "e", from: .distantPast, to: .distantFuture)
                    .map(\.endMilliseconds)
                    == [
                        samples[1].endMilliseconds, samples[2].endMilliseconds,
                        Self.minute(9).endMilliseconds,
                    ])
            // Deleted once: the id names nothing now.
            #expect(try await store.deleteSamples(withIDs: [ids[0]], from: "e") == 0)
            #expect(try await store.deleteSamples(withIDs: [ids[2], ids[1]], from: "e") == 2)
            #expect(try Self.total(store) == 4)
            #expect(try await store.verify().isHealthy)
            await #expect(throws: StoreError.self) {
                try await store.deleteSamples(withIDs: [ids[0]], from: "nothing")
            }
        }
    }

    @Test("a sample keeps the id of its last write: none after a write without ids")
    func lastWriteGivesTheID() async throws {
        try await withTemporaryStore { store, _ in
            let (first, second) = (SampleID(UUID()), try SampleID("server-42"))
            try await store.write([Self.minute(0)], ids: [first], to: "e", unit: "kcal")
            // The same sample again, unchanged, without an id: it has none now.
            try await store.write([Self.minute(0)], to: "e", unit: "kcal")
            #expect(try await store.deleteSamples(withIDs: [first], from: "e") == 0)
            try await store.write([Self.minute(0, value: 3)], ids: [second], to: "e", unit: "kcal")
            #expect(try await store.deleteSamples(withIDs: [first], from: "e") == 0)
            #expect(try await store.deleteSamples(withIDs: [second], from: "e") == 1)
            #expect(try Self.total(store) == 0)
        }
    }

    @Test("ids out of count, empty or too long are refused before anything is written")
    func badIDs() async throws {
        try await withTemporaryStore { store, _ in
            await #expect(throws: StoreError.self) {
                try await store.write(
                    [Self.minute(0), Self.minute(1)], ids: [SampleID(UUID())], to: "e",
                    unit: "kcal")
            }
            #expect(try store.unit(of: "e") == nil)
            #expect(throws: StoreError.self) { try SampleID("") }
            #expect(throws: StoreError.self) { try SampleID(bytes: Array(repeating: 1, count: 65)) }
            let uuid = UUID()
            #expect(SampleID(uuid).uuid == uuid && SampleID(uuid).description == uuid.uuidString)
            #expect(try SampleID(bytes: [0x61, 0x0F, 0xA0]).description == "610fa0")
            let decoded = try JSONDecoder().decode(
                SampleID.self, from: JSONEncoder().encode(try SampleID("abc")))
            #expect(decoded == (try SampleID("abc")))
        }
    }

    @Test("the feed carries ids and deletions by id; another store applies them exactly")
    func idsTravel() async throws {
        try await withTemporaryStore { phone, _ in
            try await withTemporaryStore { tablet, _ in
                let ids = Self.uuids(3)
                let samples = [
                    Self.minute(0), Self.minute(0, value: 2, length: 300_000), Self.minute(5),
                ]
                try await phone.write(samples, ids: ids, to: "e", unit: "kcal", source: "Watch")
                let all = try phone.changes(since: nil)
                #expect(all.writtenSampleIDs == ids)
                #expect(all.writtenSamples.map(\.id) == ids)
                #expect(all.writtenSamples.map(\.sample) == samples)
                let bytes = try all.encoded()
                #expect(bytes[4] == 2)
                #expect(try ChangeSet(encoded: bytes) == all)
                try await tablet.apply(try ChangeSet(encoded: bytes))
                // The ids travelled: the tablet deletes by them too.
                #expect(try await tablet.deleteSamples(withIDs: [ids[2]], from: "e") == 1)

                #expect(try await phone.deleteSamples(withIDs: [ids[0]], from: "e") == 1)
                let later = try phone.changes(since: all.anchor)
                #expect(later.deletedSampleIDs == [ids[0]] && later.sampleCount == 0)
                try await tablet.apply(try ChangeSet(encoded: try later.encoded()))
                // Only the sample the id named went: the other of its start stays.
                #expect(
                    try tablet.samples(of: "e", from: .distantPast, to: .distantFuture)
                        == [samples[1]])
                // Back to the phone: the tablet's deletion by id removes the third there.
                try await phone.apply(try tablet.changes(since: nil))
                #expect(
                    try phone.samples(of: "e", from: .distantPast, to: .distantFuture)
                        == [samples[1]])
                // A deletion older than a later write of the same sample does not remove it.
                try await tablet.write(
                    [samples[0]], ids: [ids[0]], to: "e", unit: "kcal", source: "Watch")
                try await tablet.apply(try phone.changes(since: nil))
                #expect(try Self.total(tablet) == 3)
            }
        }
    }

    @Test("a set without ids is of version 1, and a series without ids stores none")
    func noIDsNoBytes() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write((0..<50).map { Self.minute($0) }, to: "e", unit: "kcal")
            #expect(try store.changes(since: nil).encoded()[4] == 1)
            let layouts = try store.engine.read { txn in
                var layouts: [UInt8] = []
                try store.engine.storage.sync?.table.forEach(from: [2], in: txn) { key, value in
                    guard key.first == 2 else { return false }
                    layouts.append(value[0])
                    return true
                }
                return layouts
            }
            // One commit wrote the day's every sample: its versions name no identity either.
            #expect(layouts == [DayVersions.wholeDayLayout])
            #expect(
                try store.engine.read {
                    try store.engine.storage.seriesRecord(named: "e", in: $0)?.keepsSampleIDs
                } == false)
        }
    }

    @Test("samples, deletions by id and an anchor land in one transaction, or none of them")
    func mirroredCommit() async throws {
        try await withTemporaryStore { store, _ in
            let ids = Self.uuids(2)
            try await store.write(
                [Self.minute(0), Self.minute(1)], ids: ids, to: "e", unit: "kcal")
            let next = SampleID(UUID())
            let part = SeriesSamples(
                series: "e", unit: "kcal", samples: [Self.minute(2, value: 5)], ids: [next])
            let summary = try await store.write(
                [part], deletingSamplesWithIDs: ["e": [ids[0]]], externalAnchor: Data([1]),
                named: "healthkit")
            #expect(summary["e"]?.removed == 1 && summary["e"]?.inserted == 1)
            #expect(try Self.total(store) == 6)
            #expect(try store.externalAnchor(named: "healthkit") == Data([1]))
            // A bad sample in the same call: the deletion and the anchor do not land either.
            var bad = part
            bad.samples = [Sample(startMilliseconds: 10, endMilliseconds: 5, value: 1)]
            await #expect(throws: StoreError.self) {
                try await store.write(
                    [bad], deletingSamplesWithIDs: ["e": [ids[1]]], externalAnchor: Data([2]),
                    named: "healthkit")
            }
            #expect(try Self.total(store) == 6)
            #expect(try store.externalAnchor(named: "healthkit") == Data([1]))
            #expect(try await store.deleteSamples(withIDs: [ids[1], next], from: "e") == 2)
        }
    }

    @Test("a damaged entry of the id index is reported by verify and refused, never a trap")
    func damagedIndex() async throws {
        try await withTemporaryStore { store, _ in
            let id = SampleID(UUID())
            try await store.write([Self.minute(0)], ids: [id], to: "e", unit: "kcal")
            #expect(try await store.verify().isHealthy)
            let sync = try #require(store.engine.tables.sync)
            try store.engine.write { txn, _ in
                let key = try sync.table.keys(
                    prefix: [SyncTable.Kind.sampleID.rawValue], in: txn)
                try #require(key.count == 1)
                try txn.put([1, 2, 3], forKey: key[0], in: sync.database)
            }
            let report = try await store.verify()
            #expect(report.problems.map(\.kind) == [.damagedChangeLog], "\(report.problems)")
            await #expect(throws: StoreError.self) {
                try await store.deleteSamples(withIDs: [id], from: "e")
            }
            #expect(try Self.total(store) == 1)
        }
    }

    #if Encryption
        @Test("an encrypted store keeps no id in the clear, and deletes by id")
        func encrypted() async throws {
            var options = StoreOptions()
            options.encryptionKey = .random()
            try await withTemporaryStore(options: options) { store, directory in
                let id = try SampleID("visible-sample-id-1234")
                try await store.write([Self.minute(0)], ids: [id], to: "e", unit: "kcal")
                let file = try Data(contentsOf: directory.appendingPathComponent("data.mdb"))
                #expect(file.range(of: Data(id.bytes)) == nil)
                #expect(try await store.deleteSamples(withIDs: [id], from: "e") == 1)
            }
        }
    #endif
}
