#if Encryption
    import Foundation
    import Testing
    import TestSupport
    import TrendStore

    /// Moving a store between plain, encrypted and another key through a verified copy.
    @Suite("Encrypted backups")
    struct EncryptedBackupTests {
        @Test(
            "plain to encrypted, to another key, and back to plain: every copy answers as the original"
        )
        func rekeyChain() async throws {
            try await withTemporaryDirectory { directory in
                var options = StoreOptions()
                options.timeZone = TimeZone(identifier: "Europe/Lisbon")
                let original = try TrendStore(
                    directory: directory.url.appendingPathComponent("plain"), options: options)
                try await EncryptionTests.fill(original)
                let first = EncryptionKey.random()
                let second = EncryptionKey.passphrase("another key")
                var current = original
                for (step, key) in [first, second, nil].enumerated() {
                    let target = directory.url.appendingPathComponent("copy-\(step)")
                    let expected = try EncryptionTests.answers(current)
                    let report = try await current.backup(to: target, encryptingWith: key)
                    #expect(report.isHealthy && report.samplesChecked > 40_000)
                    var copyOptions = StoreOptions()
                    copyOptions.encryptionKey = key
                    let copy = try TrendStore(directory: target, options: copyOptions)
                    #expect(try copy.encryptionCipher == (key == nil ? nil : "AES-256-GCM"))
                    #expect(try EncryptionTests.answers(copy) == expected)
                    #expect(try copy.appliedMigrations() == original.appliedMigrations())
                    #expect(try copy.defaultTimeZone == original.defaultTimeZone)
                    // The copy takes writes: its next series id and change counts came along.
                    try await copy.write(
                        [Sample(startMilliseconds: 0, endMilliseconds: 1, value: 1)], to: "new",
                        unit: "kcal")
                    #expect(try await copy.verify().isHealthy)
                    current = copy
                }
                // Nothing is left beside the copies, and a store is never overwritten.
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
                #expect(names.sorted() == ["copy-0", "copy-1", "copy-2", "plain"])
                #expect(throws: StoreError.self) {
                    try original.backup(
                        to: directory.url.appendingPathComponent("copy-0"), encryptingWith: nil)
                }
            }
        }
    }
#endif
