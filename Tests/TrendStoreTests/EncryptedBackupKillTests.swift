#if Encryption
    import Foundation
    import Testing
    import TestSupport
    import TrendStore
    import TrendStoreTesting

    /// A key-changing copy killed at any moment leaves the original untouched and no copy
    /// holding data that opens.
    @Suite("Encrypted backups killed midway", .serialized)
    struct EncryptedBackupKillTests {
        @Test(
            "SIGKILL during backup --new-key-file: the original is untouched, the copy is whole or absent"
        )
        func killDuringRekey() async throws {
            try await withTemporaryDirectory { directory in
                let original = directory.url.appendingPathComponent("original")
                let keyFile = directory.url.appendingPathComponent("key").path
                let newKeyFile = directory.url.appendingPathComponent("new-key").path
                for file in [keyFile, newKeyFile] {
                    #expect(try CommandLineTool.run(["keygen", "--out", file]).status == 0)
                }
                let key = try #require(try encryptionKey(inFile: keyFile))
                let newKey = try #require(try encryptionKey(inFile: newKeyFile))
                var options = StoreOptions()
                options.encryptionKey = key
                options.durability = .none
                do {
                    let store = try TrendStore(directory: original, options: options)
                    var generator = SampleGenerator(seed: 77)
                    for part in 0..<6 {
                        try await store.write(
                            generator.minuteSamples(
                                from: 1_600_000_000_000 + Int64(part) * 60_000 * 60_000,
                                count: 60_000),
                            to: "energy-\(part % 3)", unit: "kcal")
                    }
                    await store.close()
                }
                options.readOnly = true
                let before = try Self.digest(original, options)
                var outcomes: [String] = []
                for trial in 0..<8 {
                    let target = directory.url.appendingPathComponent("copy-\(trial)")
                    _ = try await CommandLineTool.killed(
                        [
                            "backup", target.path, "--store", original.path, "--key-file", keyFile,
                            "--new-key-file", newKeyFile,
                        ], after: .milliseconds(40 + 450 * trial))
                    #expect(try Self.digest(original, options) == before, "trial \(trial)")
                    var copyOptions = StoreOptions()
                    copyOptions.encryptionKey = newKey
                    copyOptions.readOnly = true
                    if FileManager.default.fileExists(atPath: target.path) {
                        #expect(try Self.digest(target, copyOptions) == before, "trial \(trial)")
                        outcomes.append("whole")
                    } else {
                        outcomes.append("absent")
                    }
                    // A partial copy left beside it holds nothing that opens.
                    for name in try FileManager.default.contentsOfDirectory(
                        atPath: directory.url.path)
                    where name.hasPrefix(".copy-\(trial).partial-") {
                        let partial = directory.url.appendingPathComponent(name)
                        let opened = try? TrendStore(directory: partial, options: copyOptions)
                        #expect(
                            try opened?.series().isEmpty ?? true, "trial \(trial): \(name) opens")
                        outcomes[outcomes.count - 1] += " (partial left)"
                    }
                }
                print("backup kill trials: \(outcomes)")
            }
        }

        @Test(
            "a backup removes the partial copies to the same place that killed backups left, and no other's"
        )
        func partialsOfKilledRunsRemoved() async throws {
            try await withTemporaryStore { store, _ in
                try await store.write(
                    [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "e",
                    unit: "kcal")
                let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "partials-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: parent) }
                // No process has the largest pid; this one is running.
                let dead = parent.appendingPathComponent(".copy.partial-2147483646-old")
                let running = parent.appendingPathComponent(
                    ".copy.partial-\(ProcessInfo.processInfo.processIdentifier)-busy")
                for partial in [dead, running] {
                    try FileManager.default.createDirectory(
                        at: partial, withIntermediateDirectories: true)
                    try Data("plaintext".utf8).write(to: partial.appendingPathComponent("data.mdb"))
                }
                try await store.backup(
                    to: parent.appendingPathComponent("copy"), encryptingWith: .random())
                #expect(!FileManager.default.fileExists(atPath: dead.path))
                #expect(FileManager.default.fileExists(atPath: running.path))
            }
        }

        /// What the store at `url` holds: its series and every verification count.
        static func digest(_ url: URL, _ options: StoreOptions) throws -> String {
            let store = try TrendStore(directory: url, options: options)
            let report = try store.verify()
            #expect(report.isHealthy, "\(url.lastPathComponent): \(report.problems.prefix(3))")
            return "\(try store.series()) \(report.samplesChecked) \(report.rollupsChecked)"
        }

    }
#endif
