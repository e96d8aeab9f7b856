#if Encryption
    import Foundation
    import LMDB
    import Testing
    import TestSupport
    @testable import TrendStore
    import TrendStoreGenerator

    /// An encrypted store's bytes changed or moved: reported by `verify`, thrown by queries,
    /// never read as figures; and nothing of what it holds lies on disk in the clear.
    @Suite("Encrypted stores: tampering and plaintext")
    struct EncryptedDamageTests {
        /// Writes recognisable content into `store`, then overwrites, deletes and clears some
        /// of it, so LMDB reuses pages.
        static func fillRecognisably(_ store: TrendStore) async throws {
            let start: Int64 = 1_772_000_000_000
            let samples = (0..<3_000).map {
                Sample(
                    startMilliseconds: start + Int64($0) * 60_000,
                    endMilliseconds: start + Int64($0) * 60_000 + 60_000, value: 12_345.6789)
            }
            try await store.write(samples, to: "Quetzalcoatlus", unit: "zorkmid")
            try await store.write(
                samples.map {
                    Sample(
                        startMilliseconds: $0.startMilliseconds,
                        endMilliseconds: $0.endMilliseconds, value: 98_765.4321)
                }, to: "Quetzalcoatlus", unit: "zorkmid")
            _ = try await store.deleteSamples(
                of: "Quetzalcoatlus", before: Date(milliseconds: start + 1_000 * 60_000))
            _ = try await store.refreshedWeekdayAverages(
                of: "Quetzalcoatlus", now: Date(milliseconds: start + 4 * 86_400_000))
            let cache = try TypedCache<String, String>(store: store, namespace: "Xylophonist")
            try await cache.insert("Brobdingnagian", forKey: "Lilliputian")
            try await cache.insert("Brobdingnagian", forKey: "Blefuscu")
            try await cache.removeValue(forKey: "Blefuscu")
        }

        /// The byte patterns of that content in the encodings a store could use.
        static let patterns: [(String, [UInt8])] = {
            var patterns: [(String, [UInt8])] = []
            for word in [
                "Quetzalcoatlus", "zorkmid", "Xylophonist", "Brobdingnagian", "Lilliputian",
            ] {
                patterns.append((word, Array(word.utf8)))
                patterns.append(
                    (word + " (UTF-16)", Array(word.utf16.flatMap { [UInt8($0 & 0xFF), 0] })))
            }
            for value in [12_345.6789, 98_765.4321] {
                patterns.append(("\(value)", Array("\(value)".utf8)))
                patterns.append(
                    (
                        "\(value) (IEEE)",
                        withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
                    ))
                let scaled = Int64((value * 10_000).rounded())
                patterns.append(
                    (
                        "\(value) ×10⁴",
                        withUnsafeBytes(of: scaled.littleEndian, Array.init).prefix(4).map { $0 }
                    ))
            }
            return patterns
        }()

        /// The patterns found in the file at `url`.
        static func found(in url: URL) throws -> [String] {
            let bytes = [UInt8](try Data(contentsOf: url))
            return patterns.filter { name, pattern in
                bytes.indices.dropLast(pattern.count - 1).contains {
                    bytes[$0] == pattern[0]
                        && bytes[$0..<($0 + pattern.count)].elementsEqual(pattern)
                }
            }.map(\.0)
        }

        @Test("no name, unit, key or value of an encrypted store appears in its file or its backup")
        func noPlaintextOnDisk() async throws {
            try await withTemporaryDirectory { directory in
                var options = StoreOptions()
                options.encryptionKey = .random()
                let plain = try TrendStore(directory: directory.url.appendingPathComponent("plain"))
                let encrypted = try TrendStore(
                    directory: directory.url.appendingPathComponent("encrypted"), options: options)
                try await Self.fillRecognisably(plain)
                try await Self.fillRecognisably(encrypted)
                try await encrypted.backup(to: directory.url.appendingPathComponent("backup"))
                await plain.close()
                await encrypted.close()
                // The scan finds what a plain store shows: it can fail.
                let inPlain = try Self.found(
                    in: directory.url.appendingPathComponent("plain/data.mdb"))
                #expect(inPlain.contains("Quetzalcoatlus") && inPlain.contains("zorkmid"))
                #expect(inPlain.contains("Xylophonist") && inPlain.contains("Brobdingnagian"))
                for file in ["encrypted/data.mdb", "encrypted/lock.mdb", "backup/data.mdb"] {
                    #expect(
                        try Self.found(in: directory.url.appendingPathComponent(file)) == [],
                        "\(file)")
                }
            }
        }

        /// Flips one bit of the value under `key` in `database`.
        static func flip(
            _ key: [UInt8], in database: Database, at position: (Int) -> Int, of store: TrendStore
        ) throws {
            try store.engine.write { txn, _ in
                var bytes = try #require(try txn.value(forKey: key, in: database))
                bytes[position(bytes.count)] ^= 0x10
                try txn.put(bytes, forKey: key, in: database)
            }
        }

        @Test(
            "a changed byte in a block, a rollup row or an hour summary is reported with its series and window, and reads throw",
            arguments: [0, 7, 20, -1])
        func tamperedSampleData(position: Int) async throws {
            var options = StoreOptions()
            options.encryptionKey = .random()
            options.rollupGrid = .quarterHour
            try await withTemporaryStore(options: options) { store, _ in
                try await Self.fillRecognisably(store)
                let engine = store.engine
                let (record, block, day) = try engine.read { txn in
                    let record = try engine.storage.requireSeries(named: "Quetzalcoatlus", in: txn)
                    let block = try #require(
                        try engine.storage.blockStarts(
                            of: record, startingFrom: .min, through: .max, in: txn
                        ).last)
                    let day = try #require(
                        try engine.storage.rowDays(series: record.id, in: txn).last)
                    return (record, block, day)
                }
                let at = { (count: Int) in position >= 0 ? position : count - 1 }
                try Self.flip(
                    StorageKey.make(series: record.id, index: block),
                    in: engine.storage.blocks.database,
                    at: at, of: store)
                try Self.flip(
                    StorageKey.dayRowKey(series: record.id, day: day),
                    in: engine.storage.days.database,
                    at: at, of: store)
                let report = try await store.verify()
                let damaged = report.problems.filter { $0.kind == .damagedBlock }
                #expect(damaged.map(\.series) == ["Quetzalcoatlus"])
                #expect(damaged.map(\.at.millisecondsSince1970) == [block])
                let rollups = report.problems.filter { $0.kind == .damagedRollup }
                #expect(rollups.map(\.series) == ["Quetzalcoatlus"])
                #expect(rollups.map(\.at.millisecondsSince1970) == [day * TimeGrid.day])
                #expect {
                    try store.samples(of: "Quetzalcoatlus", from: .distantPast, to: .distantFuture)
                } throws: {
                    ($0 as? StoreError)
                        == .damagedBlock(
                            series: "Quetzalcoatlus", firstStart: block,
                            reason: SealedValueDamage.reason)
                }
            }
        }

        @Test(
            "a changed byte in a series record, a setting, a cached aggregate or a typed-cache entry is damage, not a figure"
        )
        func tamperedRecords() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let url = directory.url.appendingPathComponent("store")
            var options = StoreOptions()
            options.encryptionKey = .random()
            let store = try TrendStore(directory: url, options: options)
            try await Self.fillRecognisably(store)
            let engine = store.engine
            // Every payload and typed-cache entry, and the series record.
            let keys: [(Database, [UInt8])] = try engine.read { txn in
                var keys: [(Database, [UInt8])] = []
                for database in [
                    engine.tables.payloads.database, engine.tables.keyValues.database,
                    engine.tables.series.database,
                ] {
                    try txn.withCursor(database) { cursor in
                        try cursor.forEach(from: []) { key, _ in
                            keys.append((database, Array(key)))
                            return true
                        }
                    }
                }
                return keys
            }
            #expect(keys.count >= 9)
            for (database, key) in keys {
                try Self.flip(key, in: database, at: { $0 / 2 }, of: store)
            }
            let report = try await store.verify()
            #expect(report.problems.filter { $0.kind == .unreadable }.count >= keys.count)
            #expect { try store.series() } throws: { ($0 as? StoreError)?.code == "damaged-record" }
            #expect { try store.cacheEntries() } throws: {
                ($0 as? StoreError)?.code == "damaged-record"
            }
            // A setting: the store then refuses to open.
            try Self.flip(
                Array("time-zone".utf8), in: engine.tables.meta.database, at: { $0 - 3 }, of: store)
            await store.close()
            #expect { _ = try TrendStore(directory: url, options: options) } throws: {
                ($0 as? StoreError)?.code == "damaged-record"
            }
        }

        @Test(
            "a value moved under another key does not open: a block copied over its neighbour is damage"
        )
        func movedValue() async throws {
            var options = StoreOptions()
            options.encryptionKey = .random()
            try await withTemporaryStore(options: options) { store, _ in
                var generator = SampleGenerator(seed: 9)
                try await store.write(
                    generator.minuteSamples(from: 1_772_000_000_000, count: 40_000), to: "bulk",
                    unit: "kcal")
                let engine = store.engine
                let blocks = engine.storage.blocks.database
                let (first, second) = try engine.write { txn, _ in
                    let record = try engine.storage.requireSeries(named: "bulk", in: txn)
                    let starts = try engine.storage.blockStarts(
                        of: record, startingFrom: .min, through: .max, in: txn)
                    let first = StorageKey.make(series: record.id, index: starts[0])
                    let second = StorageKey.make(series: record.id, index: starts[1])
                    let moved = try #require(try txn.value(forKey: first, in: blocks))
                    try txn.put(moved, forKey: second, in: blocks)
                    return (starts[0], starts[1])
                }
                let damaged = try await store.verify().problems.filter { $0.kind == .damagedBlock }
                #expect(damaged.map(\.at.millisecondsSince1970) == [second])
                #expect(first != second)
            }
        }

        @Test(
            "random bytes in place of sealed values, in every table, are damage: never a crash or a figure",
            arguments: 0..<4)
        func randomSealedValues(seed: UInt64) async throws {
            var options = StoreOptions()
            options.encryptionKey = .random()
            try await withTemporaryStore(options: options) { store, _ in
                try await Self.fillRecognisably(store)
                let engine = store.engine
                var random = SeededGenerator(seed: seed)
                let databases = [
                    engine.tables.series.database, engine.tables.blocks.database,
                    engine.tables.days.database, engine.tables.hours.database,
                    engine.tables.payloads.database, engine.tables.keyValues.database,
                ]
                let replaced = try engine.write { txn, _ in
                    var replaced = 0
                    for database in databases {
                        var keys: [[UInt8]] = []
                        try txn.withCursor(database) { cursor in
                            try cursor.forEach(from: []) { key, _ in
                                keys.append(Array(key))
                                return true
                            }
                        }
                        for key in keys where random.next() % 2 == 0 {
                            // Lengths around the envelope's: empty, short of a tag, a
                            // valid scheme byte before noise.
                            var bytes = (0..<(random.next() % 64)).map { _ in
                                UInt8.random(in: 0...255, using: &random)
                            }
                            if !bytes.isEmpty && random.next() % 2 == 0 { bytes[0] = 1 }
                            try txn.put(bytes, forKey: key, in: database)
                            replaced += 1
                        }
                    }
                    return replaced
                }
                let report = try await store.verify()
                #expect(report.problems.count >= replaced)
                for query in [
                    { _ = try store.series() },
                    {
                        _ = try store.samples(
                            of: "Quetzalcoatlus", from: .distantPast, to: .distantFuture)
                    },
                    { _ = try store.cacheEntries() },
                ] as [() throws -> Void] {
                    do { try query() } catch let error as StoreError {
                        #expect(
                            ["damaged-block", "damaged-rollup", "damaged-record", "unknown-series"]
                                .contains(error.code))
                    }
                }
            }
            // A key-derivation record of random bytes is refused or read, never trusted
            // beyond its bounds.
            var random = SeededGenerator(seed: seed + 100)
            for _ in 0..<2_000 {
                var bytes = (0..<26).map { _ in UInt8.random(in: 0...255, using: &random) }
                bytes[0] = 1
                if let derivation = KeyDerivation(encoded: bytes) {
                    #expect(derivation.logRounds <= 20 && derivation.parallelism <= 16)
                }
            }
        }
    }
#endif
