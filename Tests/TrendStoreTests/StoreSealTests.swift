#if Encryption
    import Foundation
    import LMDB
    import Testing
    import TestSupport
    import TrendStoreGenerator

    @testable import TrendStore

    /// Format 7: an encrypted store's values and blinded keys are bound to the store's random
    /// seal id, so two stores under one key share nothing that opens or matches in the other.
    @Suite("Values bound to their store")
    struct StoreSealTests {
        static let fixture = FormatSixEncryptedStoreTests.fixture
        static let start: Int64 = 1_772_000_000_000

        /// Two new stores under one key, each holding series `e` with its own values.
        static func twoStores(in directory: URL) async throws -> (TrendStore, TrendStore) {
            var options = StoreOptions()
            options.encryptionKey = try EncryptionKey(rawBytes: [UInt8](repeating: 5, count: 32))
            var stores: [TrendStore] = []
            for (index, name) in ["one", "two"].enumerated() {
                let store = try TrendStore(
                    directory: directory.appendingPathComponent(name), options: options)
                try await store.write(
                    (0..<600).map {
                        let begin = start + Int64($0) * 60_000
                        return Sample(
                            startMilliseconds: begin, endMilliseconds: begin + 60_000,
                            value: Double(index + 1))
                    }, to: "e", unit: "kcal")
                stores.append(store)
            }
            return (stores[0], stores[1])
        }

        /// Every entry of `table` as stored: key and sealed value.
        static func stored(_ table: RawTable, of store: TrendStore) throws -> [[UInt8]: [UInt8]] {
            try store.engine.read { txn in
                var entries: [[UInt8]: [UInt8]] = [:]
                try table.withCursor(in: txn) { cursor in
                    try cursor.forEach(from: []) { key, value in
                        entries[Array(key)] = Array(value)
                        return true
                    }
                }
                return entries
            }
        }

        /// The scheme bytes of every sealed value of `store`.
        static func schemes(of store: TrendStore) throws -> Set<UInt8?> {
            Set(try sealedValues(of: store).map(\.first))
        }

        /// Every table of `store` but `meta`'s clear records, as stored.
        static func sealedValues(of store: TrendStore) throws -> [[UInt8]] {
            let tables = store.engine.tables
            var values = try stored(tables.meta.sealedRecords, of: store).filter {
                !MetaTable.clearKeys.contains($0.key)
            }.map(\.value)
            for table in [tables.series.raw, tables.payloads.raw, tables.keyValues.raw]
                + tables.resealedTables
            {
                values += try stored(table, of: store).values
            }
            return values
        }

        @Test(
            "a series' blocks, rows and summaries copied from another store under the same key do not open"
        )
        func transplantIsDamage() async throws {
            try await withTemporaryDirectory { directory in
                let (one, two) = try await Self.twoStores(in: directory.url)
                #expect(
                    try one.samples(of: "e", from: .distantPast, to: .distantFuture)[0].value == 1)
                let tables = one.engine.tables
                for table in [tables.blocks.raw, tables.days.raw, tables.hours.raw] {
                    let moved = try Self.stored(table, of: two)
                    try one.engine.write { txn, _ in
                        for (key, value) in moved {
                            try txn.put(value, forKey: key, in: table.database)
                        }
                    }
                }
                #expect(throws: StoreError.self) {
                    try one.samples(of: "e", from: .distantPast, to: .distantFuture)
                }
                #expect(throws: StoreError.self) {
                    try one.dayCurve(
                        of: "e",
                        on: LocalDate(
                            containing: Date(milliseconds: Self.start), in: one.defaultTimeZone))
                }
                #expect(try await !one.verify().isHealthy)
                // The same series name is blinded differently in each store.
                #expect(
                    Set(try Self.stored(tables.series.raw, of: one).keys)
                        .isDisjoint(with: try Self.stored(tables.series.raw, of: two).keys))
                #expect(
                    try Self.schemes(of: one)
                        == [ValueSealer.boundScheme])
                await one.close()
                await two.close()
            }
        }

        @Test(
            "the encrypted store of format 6 is resealed: every value names the seal id, keys blinded anew, contents unchanged, old values refused"
        )
        func migratesFormatSix() async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(
                    Self.fixture, in: directory.url)
                let readOnly = options.readingOnly
                let old = try TrendStore(directory: copy, options: readOnly)
                let tables = old.engine.tables
                let oldSeries = try Self.stored(tables.series.raw, of: old)
                let oldBlocks = try Self.stored(tables.blocks.raw, of: old)
                #expect(
                    try Self.schemes(of: old) == [
                        ValueSealer.unboundScheme
                    ])
                await old.close()

                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == Int(StorageFormat.current))
                #expect(
                    try store.engine.read { try store.engine.tables.meta.sealID(in: $0) }?.count
                        == 16)
                #expect(
                    try Self.schemes(of: store) == [
                        ValueSealer.boundScheme
                    ])
                #expect(
                    Set(try Self.stored(tables.series.raw, of: store).keys).isDisjoint(
                        with: oldSeries.keys))
                try await FormatSixEncryptedStoreTests.expectContents(of: store)

                // A block as format 6 sealed it, put back under its key: refused.
                let (key, value) = try #require(oldBlocks.first)
                try store.engine.write { txn, _ in
                    try txn.put(value, forKey: key, in: tables.blocks.raw.database)
                }
                #expect(try await !store.verify().isHealthy)
                await store.close()
            }
        }

        @Test(
            "a store between two batches of its resealing reads right, read-only and from another process, and the next writable open finishes it"
        )
        func betweenBatches() async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(
                    Self.fixture, in: directory.url)
                // Migrate, then put the days and hours back as format 6 sealed them (with the
                // key alone) and record a position before them: the state a kill leaves
                // between batches.
                let store = try TrendStore(directory: copy, options: options)
                let tables = store.engine.tables
                let legacy = try #require(options.encryptionKey).sealerForTests()
                try store.engine.write { txn, _ in
                    for table in [tables.days.raw, tables.hours.raw] {
                        var entries: [([UInt8], [UInt8])] = []
                        try table.withCursor(in: txn) { cursor in
                            try cursor.forEach(from: []) { key, value in
                                let plain = try table.opened(value, key: key) { Array($0) }
                                entries.append((Array(key), plain))
                                return true
                            }
                        }
                        for (key, plain) in entries {
                            let sealed = try plain.withUnsafeBytes {
                                try legacy.seal($0, table: table.name, key: key)
                            }
                            try txn.put(sealed, forKey: key, in: table.database)
                        }
                    }
                    try tables.meta.setResealPosition(ResealPosition(table: 1, key: []), in: txn)
                    // As the migration's batches leave it: format 7, later steps not run.
                    try tables.meta.setAppliedMigrations(
                        try tables.meta.appliedMigrations(in: txn).filter {
                            $0 != StoreSealMigration.identifier
                                && $0 != SampleIDMigration.identifier
                                && $0 != WholeDayVersionsMigration.identifier
                        }, in: txn)
                    try tables.meta.recordFormat(StorageFormat.storeBoundSealing, in: txn)
                }
                await store.close()

                let readOnly = options.readingOnly
                let between = try TrendStore(directory: copy, options: readOnly)
                #expect(try between.formatVersion == 7)
                #expect(try Self.schemes(of: between) == [1, 2])
                try await FormatSixEncryptedStoreTests.expectContents(of: between)
                await between.close()
                let key = Fixtures.path(Self.fixture) + "/key.hex"
                let csv = directory.url.appendingPathComponent("between.csv").path
                let exported = try CommandLineTool.run([
                    "export", "--store", copy.path, "--key-file", key, "--series", "activeEnergy",
                    "--out", csv,
                ])
                #expect(exported.status == 0, "\(exported.output)")
                // A header and the 5,655 samples.
                #expect(
                    try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").count
                        == 5_656)

                let finished = try TrendStore(directory: copy, options: options)
                #expect(
                    try finished.appliedMigrations().suffix(3)
                        == [
                            StoreSealMigration.identifier, SampleIDMigration.identifier,
                            WholeDayVersionsMigration.identifier,
                        ])
                #expect(try finished.engine.read { try tables.meta.resealPosition(in: $0) } == nil)
                #expect(
                    try Self.schemes(of: finished) == [
                        ValueSealer.boundScheme
                    ])
                try await FormatSixEncryptedStoreTests.expectContents(of: finished)
                await finished.close()
            }
        }

        @Test(
            "a handle that opened the store as format 6 is told to open it again once another process binds it"
        )
        func handleOfTheOldFormat() async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(
                    Self.fixture, in: directory.url)
                let readOnly = options.readingOnly
                let old = try TrendStore(directory: copy, options: readOnly)
                #expect(try old.formatVersion == 6)
                let key = Fixtures.path(Self.fixture) + "/key.hex"
                let late = try BlockLayoutMigrationTests.lateCSV(in: directory)
                let imported = try CommandLineTool.run([
                    "import", late, "--store", copy.path, "--key-file", key,
                ])
                #expect(imported.status == 0, "\(imported.output)")
                do {
                    _ = try old.samples(of: "activeEnergy", from: .distantPast, to: .distantFuture)
                    Issue.record("a handle of format 6 read a store of format 7")
                } catch let error as StoreError {
                    #expect("\(error)".contains("open it again"), "\(error)")
                }
                await old.close()
                let again = try TrendStore(directory: copy, options: readOnly)
                try await FormatSixEncryptedStoreTests.expectContents(of: again)
                await again.close()
            }
        }

        @Test(
            "two processes opening the store of format 6 at once both write, whichever migrates it")
        func twoOpenersAtOnce() async throws {
            for trial in 0..<6 {
                try await withTemporaryDirectory { directory in
                    let (copy, options) = try Fixtures.copyOfEncryptedStore(
                        Self.fixture, in: directory.url)
                    let key = Fixtures.path(Self.fixture) + "/key.hex"
                    let late = try BlockLayoutMigrationTests.lateCSV(in: directory)
                    let started = try (0..<2).map { _ in
                        try CommandLineTool.start([
                            "import", late, "--store", copy.path, "--key-file", key,
                        ])
                    }
                    for (process, output) in started {
                        let printed = String(
                            decoding: output.fileHandleForReading.readDataToEndOfFile(),
                            as: UTF8.self)
                        #expect(process.terminationStatus == 0, "trial \(trial): \(printed)")
                    }
                    let store = try TrendStore(directory: copy, options: options)
                    #expect(try store.formatVersion == Int(StorageFormat.current))
                    try await FormatSixEncryptedStoreTests.expectContents(of: store)
                    await store.close()
                }
            }
        }

        @Test(
            "killed at a random moment of an import that reseals it, the store reads the same and finishes at the next writable open",
            .serialized, arguments: 0..<10)
        func killDuringResealing(trial: Int) async throws {
            try await withTemporaryDirectory { directory in
                let (copy, options) = try Fixtures.copyOfEncryptedStore(
                    Self.fixture, in: directory.url)
                let key = Fixtures.path(Self.fixture) + "/key.hex"
                let late = try BlockLayoutMigrationTests.lateCSV(in: directory)
                var random = SeededGenerator(seed: UInt64(trial) &+ 7_000)
                let (process, _) = try CommandLineTool.start([
                    "import", late, "--store", copy.path, "--key-file", key,
                ])
                // The migration commits late in the process (after the supervisor's start and
                // the open): the kills fall across the second half of a measured import.
                usleep(
                    UInt32(Double.random(in: 0.4...1.0, using: &random) * Self.importMicroseconds))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let readOnly = options.readingOnly
                let killed = try TrendStore(directory: copy, options: readOnly)
                let format = try killed.formatVersion
                let resealing = try killed.engine.read {
                    try killed.engine.tables.meta.resealPosition(in: $0)
                }
                try await FormatSixEncryptedStoreTests.expectContents(of: killed)
                await killed.close()
                let store = try TrendStore(directory: copy, options: options)
                #expect(try store.formatVersion == Int(StorageFormat.current))
                #expect(
                    try Self.schemes(of: store) == [
                        ValueSealer.boundScheme
                    ])
                try await FormatSixEncryptedStoreTests.expectContents(of: store)
                await store.close()
                print(
                    "format 6 → 7 reseal kill trial \(trial): opened as format \(format)\(resealing == nil ? "" : ", between batches"), finished, healthy"
                )
            }
        }
    }

    extension StoreSealTests {
        /// How long a resealing import of the fixture takes, measured once.
        static let importMicroseconds: Double = {
            guard let directory = try? TemporaryDirectory() else { return 150_000 }
            defer { directory.remove() }
            guard let copy = try? Fixtures.copyOfStore(fixture, in: directory.url),
                let late = try? BlockLayoutMigrationTests.lateCSV(in: directory)
            else { return 150_000 }
            let began = ContinuousClock.now
            _ = try? CommandLineTool.run([
                "import", late, "--store", copy.path, "--key-file",
                Fixtures.path(fixture) + "/key.hex",
            ])
            let took = ContinuousClock.now - began
            return Double(took.components.seconds) * 1e6 + Double(took.components.attoseconds)
                / 1e12
        }()
    }

    extension EncryptionKey {
        /// A sealer of this key that knows of no seal id: it seals as format 6 did.
        func sealerForTests() throws -> ValueSealer {
            guard case .bytes(let bytes) = material else { throw CocoaError(.featureUnsupported) }
            return ValueSealer(key: bytes)
        }
    }
#endif
