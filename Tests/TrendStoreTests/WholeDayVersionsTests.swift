import Foundation
import Testing
import TestSupport
import TrendStoreTesting

@testable import TrendStore

/// A day whose samples were all written by one commit keeps its versions without their
/// identities (layout 4, format 9), and reads, writes, deletions and applies see the same
/// versions as when the identities were listed.
@Suite("A day's versions without identities (layout 4)")
struct WholeDayVersionsTests {
    /// A UTC midnight.
    static let dayStart: Int64 = 1_763_683_200_000

    static func seconds(_ range: Range<Int64>, value: Double? = nil) -> [Sample] {
        range.map {
            Sample(
                startMilliseconds: dayStart + $0 * 1_000,
                endMilliseconds: dayStart + ($0 + 1) * 1_000, value: value ?? Double($0 % 7))
        }
    }

    /// The stored base record of `series`' day of `start` (its default source).
    static func base(of store: TrendStore, series: String, start: Int64 = dayStart) throws
        -> [UInt8]?
    {
        let table = try #require(store.engine.storage.sync)
        return try store.engine.read { txn in
            let record = try store.engine.storage.requireSeries(named: series, in: txn)
            let key = StreamDay(stream: record.id, day: start.floorDivided(by: TimeGrid.day))
            return try table.table.withValue(forKey: SyncTable.key(key), in: txn) { Array($0) }
        }
    }

    /// The versions the change log holds for `series`' day of `start`, as a write or an
    /// apply reads them (deleted samples' too).
    static func versions(of store: TrendStore, series: String, start: Int64 = dayStart) throws
        -> DayVersions
    {
        let table = try #require(store.engine.storage.sync)
        let storage = store.engine.storage
        return try store.engine.read { txn in
            let record = try storage.requireSeries(named: series, in: txn)
            return try table.dayVersions(
                StreamDay(stream: record.id, day: start.floorDivided(by: TimeGrid.day)),
                zlib: ZlibCodec(),
                daySamples: {
                    try storage.samples(of: record, onUTCDay: $0.day, in: txn, zlib: ZlibCodec())
                }, in: txn)
        }
    }

    @Test(
        "a record of layout 4 reads back its one version and position and its day's identities; a changed byte, another layout, two versions or an id are never taken for one"
    )
    func layout() throws {
        let version = ChangeVersion(clock: 1_812_345_678_901, origin: StoreID.random())
        let samples = Self.seconds(0..<50)
        let entries = samples.map {
            DayVersions.Entry(
                start: $0.startMilliseconds, end: $0.endMilliseconds, version: version,
                position: 7)
        }
        let versions = DayVersions(sorted: entries)
        let bytes = versions.encodedAsWholeDay()
        #expect(bytes.first == 4)
        #expect(bytes.count < 40)
        let read = try bytes.withUnsafeBytes { try DayVersions.wholeDay(in: $0) }
        #expect(read == DayVersions.WholeDay(version: version, position: 7, count: 50))
        #expect(DayVersions(try #require(read), identities: samples) == versions)
        #expect(bytes.withUnsafeBytes { DayVersions.newestPosition(in: $0) } == 7)
        #expect(bytes.withUnsafeBytes { DayVersions.entryCount(in: $0) } == 50)
        #expect(
            (try? bytes.withUnsafeBytes { try DayVersions(bytes: $0, zlib: ZlibCodec()) }) == nil)
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x10
            #expect((try? damaged.withUnsafeBytes { try DayVersions.wholeDay(in: $0) }) != read)
        }
        #expect(
            try versions.encoded(zlib: ZlibCodec()).withUnsafeBytes {
                try DayVersions.wholeDay(in: $0)
            } == nil)
        var twoVersions = entries
        twoVersions[49].position = 8
        #expect(DayVersions(sorted: twoVersions).sharedVersion == nil)
        var withID = entries
        withID[3].id = SampleID(checking: Array("hk-1".utf8))
        #expect(DayVersions(sorted: withID).sharedVersion == nil)
        #expect(versions.namesExactly(samples))
        #expect(!versions.namesExactly(Array(samples.dropLast())))
        #expect(!DayVersions(sorted: Array(entries.dropFirst())).namesExactly(samples))
    }

    @Test(
        "a day written whole in one commit stores no identity; a later sample, a replaced value, the feed, a deletion and a mirror read the versions as before"
    )
    func wholeDayInAStore() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(Self.seconds(0..<3_000), to: "energy", unit: "kcal")
            let first = try #require(try Self.base(of: store, series: "energy"))
            #expect(first.first == 4)
            #expect(first.count < 40)
            let all = try store.changes(since: nil)
            let written = try #require(all.written.first)
            #expect(written.samples == Self.seconds(0..<3_000))
            let version = try #require(written.versions.first)
            #expect(written.versions.allSatisfy { $0 == version })

            // A new sample and a changed value lie over the base, which stays as it was.
            var replaced = Self.seconds(5..<6)
            replaced[0].value = 40
            try await store.write(
                replaced + Self.seconds(3_000..<3_001), to: "energy", unit: "kcal")
            #expect(try Self.base(of: store, series: "energy") == first)
            let later = try store.changes(since: all.anchor)
            #expect(later.written.first?.samples == replaced + Self.seconds(3_000..<3_001))
            let laterVersion = try #require(later.written.first?.versions.first)
            #expect(laterVersion > version)

            // A mirror holding the day whole, as the first feed gave it.
            let early = try TemporaryStore()
            try await early.store.apply(all)
            #expect(try Self.base(of: early.store, series: "energy")?.first == 4)

            // A deletion lists the day's identities first: the deleted sample keeps its version.
            let removed = try await store.deleteSamples(
                of: "energy",
                from: Date(timeIntervalSince1970: Double(Self.dayStart + 10_000) / 1_000),
                to: Date(timeIntervalSince1970: Double(Self.dayStart + 11_000) / 1_000))
            #expect(removed == 1)
            #expect(try Self.base(of: store, series: "energy")?.first == 2)
            let versions = try Self.versions(of: store, series: "energy")
            #expect(versions.entries.count == 3_001)
            #expect(
                versions.version(start: Self.dayStart + 10_000, end: Self.dayStart + 11_000)
                    == version)
            #expect(
                versions.version(start: Self.dayStart + 5_000, end: Self.dayStart + 6_000)
                    == laterVersion)

            // The feed and a mirror agree with the samples left and their versions.
            let final = try store.changes(since: nil)
            var expected = Self.seconds(0..<3_001)
            expected[5].value = 40
            expected.remove(at: 10)
            #expect(final.written.first?.samples == expected)
            #expect(
                final.written.first?.versions
                    == expected.map {
                        $0.startMilliseconds == Self.dayStart + 5_000
                            || $0.startMilliseconds == Self.dayStart + 3_000_000
                            ? laterVersion : version
                    })
            let mirror = try TemporaryStore()
            try await mirror.store.apply(final)
            #expect(try mirror.store.changes(since: nil).written == final.written)
            #expect(try Self.base(of: mirror.store, series: "energy")?.first == 2)

            // The deletion applied where the day is whole: the same versions there.
            try await early.store.apply(try store.changes(since: all.anchor))
            #expect(try early.store.changes(since: nil).written == final.written)
            #expect(
                try Self.versions(of: early.store, series: "energy").version(
                    start: Self.dayStart + 10_000, end: Self.dayStart + 11_000) == version)
        }
    }

    @Test(
        "a day that holds samples the log never recorded, samples with ids, or samples of two versions keeps listing its identities"
    )
    func listedDays() async throws {
        try await withTemporaryDirectory { directory in
            // The format-4 store's samples have no recorded version.
            let copy = try Fixtures.copyOfStore(
                "stores/format-4/los-angeles-sources", in: directory.url)
            let store = try TrendStore(directory: copy)
            #expect(try store.formatVersion == 9)
            #expect(try store.appliedMigrations().last == "0009-whole-day-versions")
            let old = Sample(
                startMilliseconds: 1_773_082_894_122, endMilliseconds: 1_773_084_281_853,
                value: 4.375)
            let new = Sample(
                startMilliseconds: old.endMilliseconds,
                endMilliseconds: old.endMilliseconds + 60_000,
                value: 2)
            try await store.write([new], to: "activeEnergy", unit: "kcal")
            let base = try Self.base(
                of: store, series: "activeEnergy", start: new.startMilliseconds)
            #expect(base?.first == 2)
            let written = try #require(
                try store.changes(since: nil).written.first {
                    $0.series == "activeEnergy" && $0.source == SourceName.defaultSource
                })
            let versions = Dictionary(
                zip(written.samples.map(\.startMilliseconds), written.versions)
            ) { a, _ in a }
            #expect(versions[old.startMilliseconds] == .unrecorded)
            #expect(versions[new.startMilliseconds].map { $0 != .unrecorded } == true)
            #expect(try await store.verify().isHealthy)
        }
        try await withTemporaryStore { store, _ in
            try await store.write(
                Self.seconds(0..<100),
                ids: (0..<100).map { SampleID(checking: Array("hk-\($0)".utf8)) },
                to: "steps", unit: "count")
            #expect(try Self.base(of: store, series: "steps")?.first == 3)
        }
        // A mirror applies a day two commits wrote: two versions, listed.
        try await withTemporaryStore { store, _ in
            try await store.write(Self.seconds(0..<100), to: "energy", unit: "kcal")
            try await store.write(Self.seconds(100..<200), to: "energy", unit: "kcal")
            let mirror = try TemporaryStore()
            try await mirror.store.apply(try store.changes(since: nil))
            #expect(try Self.base(of: mirror.store, series: "energy")?.first == 2)
            #expect(
                try mirror.store.changes(since: nil).written == store.changes(since: nil).written)
        }
    }

    @Test(
        "verify finds a day's record without identities that stands for more samples than the day holds, or fewer than it holds unnamed by later records"
    )
    func verifyComparesWholeDays() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(Self.seconds(0..<300), to: "energy", unit: "kcal")
            // Later commits lie over the day: a changed value and a new sample.
            var replaced = Self.seconds(5..<6)
            replaced[0].value = 40
            try await store.write(
                replaced + Self.seconds(300..<301), to: "energy", unit: "kcal")
            #expect(try await store.verify().isHealthy)
            let table = try #require(store.engine.storage.sync)
            let original = try #require(try Self.base(of: store, series: "energy"))
            let wholeDay = try #require(
                try original.withUnsafeBytes { try DayVersions.wholeDay(in: $0) })
            // The record rewritten to stand for 302 samples (the day holds 301), then for 298
            // (299 of the day's are not named by the later records).
            for (count, found) in [(302, "stands for 302"), (298, "stands for 298")] {
                try store.engine.write { txn, _ in
                    let record = try store.engine.storage.requireSeries(named: "energy", in: txn)
                    let key = StreamDay(
                        stream: record.id, day: Self.dayStart.floorDivided(by: TimeGrid.day))
                    let bytes = DayVersions(wholeDay, identities: Self.seconds(0..<Int64(count)))
                        .encodedAsWholeDay()
                    try table.table.put(bytes, forKey: SyncTable.key(key), in: txn)
                }
                let report = try await store.verify()
                #expect(report.problems.map(\.kind) == [.damagedChangeLog], "\(count)")
                #expect(
                    report.problems.first?.detail.contains(
                        "\(found) samples it does not list, but the blocks hold 301, 2 of them")
                        == true, "\(report.problems)")
            }
        }
    }

    @Test(
        "verify compares the record of a day without identities of each source of a merged series"
    )
    func verifyComparesEachSource() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(Self.seconds(0..<200), to: "energy", unit: "kcal")
            try await store.write(
                Self.seconds(100..<300), to: "energy", unit: "kcal", source: "watch")
            #expect(try await store.verify().isHealthy)
            let table = try #require(store.engine.storage.sync)
            try store.engine.write { txn, _ in
                let storage = store.engine.storage
                let record = try storage.requireSeries(named: "energy", in: txn)
                let watch = try #require(
                    try storage.streams(of: record, in: txn).first { $0.name == "watch" })
                let key = StreamDay(
                    stream: watch.record.id, day: Self.dayStart.floorDivided(by: TimeGrid.day))
                let stored = try #require(
                    try table.table.withValue(forKey: SyncTable.key(key), in: txn) {
                        try DayVersions.wholeDay(in: $0)
                    } ?? nil)
                // The watch's record made to stand for 201 samples; it wrote 200.
                let bytes = DayVersions(stored, identities: Self.seconds(0..<201))
                    .encodedAsWholeDay()
                try table.table.put(bytes, forKey: SyncTable.key(key), in: txn)
            }
            let report = try await store.verify()
            #expect(report.problems.map(\.kind) == [.damagedChangeLog])
            #expect(
                report.problems.first?.detail.hasPrefix(
                    "source watch: the day's record of versions stands for 201") == true,
                "\(report.problems)")
        }
    }
}
