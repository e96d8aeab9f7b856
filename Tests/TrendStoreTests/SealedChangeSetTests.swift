#if Encryption
    import Foundation
    import Testing
    import TestSupport
    import TrendStoreGenerator
    import TrendStoreTesting

    import TrendStore

    /// Change sets sealed with a store's key: they read back with it and only with it, show
    /// nothing of their contents, and damaged bytes are an error, never a trap.
    @Suite("Sealed change sets")
    struct SealedChangeSetTests {
        static let key = { () -> EncryptionKey in
            do { return try EncryptionKey(rawBytes: [UInt8](repeating: 9, count: 32)) } catch {
                fatalError("32 bytes make a key")
            }
        }()

        @Test("a sealed set reads back with its key only, and its bytes show no name or sample")
        func roundTrip() async throws {
            let (_, changes) = try await ChangeSetBytesTests.sampleChanges(days: 1)
            let plain = try changes.encoded()
            let sealed = try changes.encoded(sealedWith: Self.key)
            #expect(ChangeSet.isSealed(sealed) && !ChangeSet.isSealed(plain))
            #expect(sealed.count == plain.count + 34)
            #expect(try ChangeSet(encoded: sealed, key: Self.key).encoded() == plain)
            // Nothing of the set in the clear: not its names, not a run of its block bytes.
            for text in ["energy", "kcal", "Watch", "Ring"] {
                #expect(sealed.range(of: Data(text.utf8)) == nil)
            }
            #expect(sealed.range(of: plain.subdata(in: 40..<56)) == nil)
            #expect(sealed != (try changes.encoded(sealedWith: Self.key)))  // a fresh nonce

            let refused = { (body: () throws -> ChangeSet) -> String in
                do {
                    _ = try body()
                    return "read"
                } catch {
                    return "\(error)"
                }
            }
            #expect(refused { try ChangeSet(encoded: sealed) }.contains("init(encoded:key:)"))
            #expect(
                refused { try ChangeSet(encoded: sealed, key: .random()) }
                    .contains("does not open with this key"))
            #expect(
                refused { try ChangeSet(encoded: sealed, key: .passphrase("nine")) }
                    .contains("opened with a passphrase"))
            #expect(
                refused { try ChangeSet(encoded: plain, key: Self.key) }.contains("not a sealed"))

            let phrase = EncryptionKey.passphrase("correct horse")
            let byPhrase = try changes.encoded(sealedWith: phrase)
            #expect(byPhrase.count == plain.count + 60)
            #expect(
                try ChangeSet(encoded: byPhrase, key: .passphrase("correct horse")).encoded()
                    == plain)
            #expect(
                refused { try ChangeSet(encoded: byPhrase, key: .passphrase("correct horse!")) }
                    .contains("does not open with this key"))
        }

        @Test("changed, cut or random bytes of a sealed set are an error, never a trap")
        func damagedBytes() async throws {
            let (_, changes) = try await ChangeSetBytesTests.sampleChanges(days: 1)
            let sealed = [UInt8](try changes.encoded(sealedWith: Self.key))
            var random = SeededGenerator(seed: 8_801)
            for trial in 0..<3_000 {
                var bytes = sealed
                switch trial % 3 {
                case 0:
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[index] ^= UInt8.random(in: 1...255, using: &random)
                case 1:
                    bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
                default:
                    bytes =
                        Array(sealed.prefix(6))
                        + (0..<Int.random(in: 0...200, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        }
                    if trial % 2 == 0 { bytes[5] = 26 }
                }
                #expect(throws: StoreError.self) {
                    try ChangeSet(encoded: Data(bytes), key: Self.key)
                }
            }
        }
    }
#endif
