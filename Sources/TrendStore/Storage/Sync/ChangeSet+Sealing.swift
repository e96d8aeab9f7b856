#if Encryption
    import Foundation

    extension ChangeSet {
        /// The set as bytes sealed with `key` (AES-256-GCM under a key derived from it), so a
        /// server or a CloudKit container that relays them learns only their size; only a
        /// holder of the key opens them, with ``init(encoded:key:)``. Give the key of the
        /// stores that exchange the set: an encrypted store's change sets hold its samples
        /// in the clear otherwise. Sealing adds 34 bytes to ``encoded()``'s (60 with a
        /// passphrase, which also costs a key derivation, about a tenth of a second, each way):
        /// leave that room below a transport's limit when splitting a set into ``parts(maximumBytes:maximumRecords:)``.
        public func encoded(sealedWith key: EncryptionKey) throws -> Data {
            Data(
                try ChangeSetSealer.seal(
                    try ChangeSetCodec.encode(self, zlib: ZlibCodec()), with: key))
        }

        /// Reads a change set from bytes ``encoded(sealedWith:)`` made with `key`.
        ///
        /// - Throws: ``StoreError/Code/damagedChangeSet`` for bytes that are not a sealed
        ///   change set, do not open with `key` (another key, or a changed byte), or hold a
        ///   damaged set; never traps, whatever the bytes.
        public init(encoded bytes: Data, key: EncryptionKey) throws {
            let plaintext = try bytes.withUnsafeBytes { try ChangeSetSealer.open($0, with: key) }
            self = try plaintext.withUnsafeBytes {
                try ChangeSetCodec.decode($0, zlib: ZlibCodec())
            }
        }

        /// Whether `bytes` are a sealed change set (``encoded(sealedWith:)``), which only
        /// ``init(encoded:key:)`` reads.
        public static func isSealed(_ bytes: Data) -> Bool {
            bytes.withUnsafeBytes { ChangeSetSealer.isSealed($0) }
        }
    }
#endif
