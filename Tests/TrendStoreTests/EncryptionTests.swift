#if Encryption
    import Foundation
    import Testing
    import TestSupport
    import TrendStore

    /// Encryption at rest: an encrypted store answers as a plain one with the same data, and
    /// opens only with its key.
    @Suite("Encrypted stores")
    struct EncryptionTests {
        static let start: Int64 = 1_772_000_000_000

        /// Writes the same data into `store`: minute energy, heart rate, two activity series,
        /// cached weekday averages and a typed-cache entry.
        static func fill(_ store: TrendStore) async throws {
            var generator = SampleGenerator(seed: 34)
            try await store.write(
                generator.minuteSamples(from: start, count: 40_000), to: "energy", unit: "kcal")
            let heart: [Sample] = (0..<5_000).map { (index: Int) -> Sample in
                let instant = start + Int64(index) * 7_000
                return Sample(
                    startMilliseconds: instant, endMilliseconds: instant,
                    value: 60 + Double(index % 50))
            }
            try await store.write(heart, to: "heart", unit: "count/min", kind: .discrete)
            for (index, name) in ["Run", "Ride"].enumerated() {
                try await store.write(
                    (0..<20).map {
                        let begin = start + Int64($0) * 86_400_000 + Int64(index) * 3_600_000
                        return Sample(
                            startMilliseconds: begin, endMilliseconds: begin + 1_800_000,
                            value: Double($0 + 1))
                    }, to: name, unit: "min")
            }
            _ = try await store.refreshedWeekdayAverages(
                of: "energy", now: Date(milliseconds: start + 30 * 86_400_000))
            let cache = try TypedCache<String, String>(store: store, namespace: "weather")
            try await cache.insert("sunny", forKey: "Lisbon")
        }

        /// What the tests compare between stores: every kind of answer.
        static func answers(_ store: TrendStore) throws -> [String] {
            let zone = try #require(TimeZone(identifier: "Asia/Kolkata"))
            let now = Date(milliseconds: start + 30 * 86_400_000)
            let first = try #require(LocalDate(year: 2026, month: 2, day: 25))
            let last = try #require(LocalDate(year: 2026, month: 3, day: 30))
            let march = try #require(LocalDate(year: 2026, month: 3, day: 1))
            return [
                "\(try store.series())",
                "\(try store.samples(of: "heart", from: .distantPast, to: .distantFuture).count)",
                "\(try store.dayCurve(of: "energy", on: march, timeZone: zone))",
                "\(try store.weekdayAverages(of: "energy", now: now))",
                "\(String(describing: try store.cachedWeekdayAverage(of: "energy", weekday: .monday)))",
                "\(try store.heatmap(of: ["Run", "Ride"], from: first, through: last, timeZone: zone))",
                "\(try TypedCache<String, String>(store: store, namespace: "weather").value(forKey: "Lisbon") ?? "-")",
            ]
        }

        /// Expects `store` to answer as `plain` does, answer by answer.
        static func expectSameAnswers(
            _ store: TrendStore, _ plain: TrendStore,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            for (found, expected) in zip(try answers(store), try answers(plain)) {
                #expect(found == expected, sourceLocation: sourceLocation)
            }
        }

        @Test("an encrypted store answers every query as a plain store with the same data does")
        func sameAnswers() async throws {
            try await withTemporaryDirectory { directory in
                var plainOptions = StoreOptions()
                plainOptions.timeZone = TimeZone(identifier: "Europe/Lisbon")
                var options = plainOptions
                options.encryptionKey = .random()
                let plain = try TrendStore(
                    directory: directory.url.appendingPathComponent("plain"), options: plainOptions)
                let encrypted = try TrendStore(
                    directory: directory.url.appendingPathComponent("encrypted"), options: options)
                try await Self.fill(plain)
                try await Self.fill(encrypted)
                try Self.expectSameAnswers(encrypted, plain)
                #expect(try await encrypted.verify().isHealthy)
                #expect(
                    try await encrypted.verify().samplesChecked == plain.verify().samplesChecked)
                await encrypted.close()
                let reopened = try TrendStore(
                    directory: directory.url.appendingPathComponent("encrypted"), options: options)
                try Self.expectSameAnswers(reopened, plain)
                // Deleting, overwriting and clearing work through the sealed tables too.
                _ = try await reopened.deleteSamples(
                    of: "energy", before: Date(milliseconds: Self.start + 10 * 86_400_000))
                _ = try await plain.deleteSamples(
                    of: "energy", before: Date(milliseconds: Self.start + 10 * 86_400_000))
                _ = try await reopened.clearCache(.all)
                _ = try await plain.clearCache(.all)
                try Self.expectSameAnswers(reopened, plain)
                #expect(try await reopened.verify().isHealthy)
            }
        }

        @Test(
            "a wrong key, a missing key and a key for a plain store each fail at open with their own error"
        )
        func keyErrors() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let encryptedURL = directory.url.appendingPathComponent("encrypted")
            let plainURL = directory.url.appendingPathComponent("plain")
            var options = StoreOptions()
            options.encryptionKey = .random()
            try await TrendStore(directory: encryptedURL, options: options).close()
            try await TrendStore(directory: plainURL).close()

            func code(_ url: URL, _ key: EncryptionKey?, readOnly: Bool = false) -> StoreError.Code?
            {
                var options = StoreOptions()
                options.encryptionKey = key
                options.readOnly = readOnly
                do {
                    _ = try TrendStore(directory: url, options: options)
                    return nil
                } catch {
                    return (error as? StoreError)?.code
                }
            }
            for readOnly in [false, true] {
                #expect(code(encryptedURL, nil, readOnly: readOnly) == "encryption-key-required")
                #expect(code(encryptedURL, .random(), readOnly: readOnly) == "wrong-encryption-key")
                #expect(code(encryptedURL, options.encryptionKey, readOnly: readOnly) == nil)
                #expect(code(plainURL, .random(), readOnly: readOnly) == "not-encrypted")
                #expect(code(plainURL, nil, readOnly: readOnly) == nil)
                #expect(
                    code(encryptedURL, .passphrase("a passphrase"), readOnly: readOnly)
                        == "wrong-encryption-key")
            }
            #expect(
                throws: StoreError.invalidArgument(
                    .encryptionKey, reason: "a key is 32 bytes, not 31")
            ) {
                _ = try EncryptionKey(rawBytes: [UInt8](repeating: 1, count: 31))
            }
            // The key's bytes round-trip, as an app keeping them in the Keychain does.
            let bytes = try #require(options.encryptionKey?.withUnsafeBytes { Array($0) })
            #expect(code(encryptedURL, try EncryptionKey(rawBytes: bytes)) == nil)
        }

        @Test("a store created from a passphrase opens with it, and with no other")
        func passphrase() async throws {
            try await withTemporaryDirectory { directory in
                let url = directory.url.appendingPathComponent("store")
                var options = StoreOptions()
                options.encryptionKey = .passphrase("correct horse battery staple")
                let store = try TrendStore(directory: url, options: options)
                try await store.write(
                    [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 2.5)], to: "e",
                    unit: "kcal")
                await store.close()
                let reopened = try TrendStore(directory: url, options: options)
                #expect(
                    try reopened.samples(of: "e", from: .distantPast, to: .distantFuture).map(
                        \.value)
                        == [2.5])
                await reopened.close()
                options.encryptionKey = .passphrase("correct horse battery stapler")
                #expect { _ = try TrendStore(directory: url, options: options) } throws: {
                    ($0 as? StoreError)?.code == "wrong-encryption-key"
                }
                options.encryptionKey = .random()
                #expect { _ = try TrendStore(directory: url, options: options) } throws: {
                    ($0 as? StoreError)?.code == "wrong-encryption-key"
                }
            }
        }
    }
#endif
