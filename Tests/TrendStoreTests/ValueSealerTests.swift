#if Encryption
    import Testing
    @testable import TrendStore

    /// What a sealer keeps of the values it seals: a commit's small values, for the next commit
    /// to read without opening them, and only for exactly those sealed bytes.
    @Suite("Sealed values")
    struct ValueSealerTests {
        struct NoKeyBytes: Error {}

        static func sealer() throws -> ValueSealer {
            guard case .bytes(let key) = EncryptionKey.random().material else { throw NoKeyBytes() }
            return ValueSealer(key: key)
        }

        static func open(_ sealer: ValueSealer, _ sealed: [UInt8], table: String, key: [UInt8])
            throws -> [UInt8]
        {
            try sealed.withUnsafeBytes { sealed in
                try key.withUnsafeBytes {
                    Array(try sealer.open(sealed, table: table, key: $0).bytes)
                }
            }
        }

        @Test("A small value sealed is kept as opened, for its own bytes, database and key only")
        func smallValueKept() throws {
            let sealer = try Self.sealer()
            let row = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let sealed = try row.withUnsafeBytes {
                try sealer.seal($0, table: "days", key: [1, 2])
            }
            #expect(sealer.opened.entryCount == 1)
            #expect(try Self.open(sealer, sealed, table: "days", key: [1, 2]) == row)
            #expect(sealer.opened.entryCount == 1)

            #expect(throws: SealedValueDamage.self) {
                try Self.open(sealer, sealed, table: "hours", key: [1, 2])
            }
            #expect(throws: SealedValueDamage.self) {
                try Self.open(sealer, sealed, table: "days", key: [1, 3])
            }
            for index in [0, 5, sealed.count / 2, sealed.count - 1] {
                var changed = sealed
                changed[index] ^= 0x10
                #expect(throws: SealedValueDamage.self) {
                    try Self.open(sealer, changed, table: "days", key: [1, 2])
                }
            }
        }

        @Test("A value larger than a commit's rows is sealed without being kept")
        func largeValueNotKept() throws {
            let sealer = try Self.sealer()
            let block = [UInt8](repeating: 9, count: ValueSealer.keptWhenSealed + 1)
            let sealed = try block.withUnsafeBytes {
                try sealer.seal($0, table: "blocks", key: [4])
            }
            #expect(sealer.opened.entryCount == 0)
            #expect(try Self.open(sealer, sealed, table: "blocks", key: [4]) == block)
            #expect(sealer.opened.entryCount == 1)
        }
    }
#endif
