#if Encryption
    import Crypto
    import Foundation

    /// The key of an encrypted store (``StoreOptions/encryptionKey``): 32 bytes, or a passphrase
    /// that the store's own salt turns into them.
    ///
    /// Keep a key where the platform keeps secrets (the Keychain on Apple platforms): whoever
    /// holds it and the store's file reads every sample. A store's key never changes in place;
    /// ``TrendStore/backup(to:encryptingWith:)-5rl8l`` writes a copy under another key, or none.
    public struct EncryptionKey: Sendable {
        enum Material: Sendable {
            case bytes(SymmetricKey)
            case passphrase([UInt8])
        }

        let material: Material

        /// A key of exactly 32 bytes, such as one ``random()`` made and the app kept.
        ///
        /// - Throws: ``StoreError/Code/invalidArgument(_:)`` for another count.
        public init(rawBytes: some Collection<UInt8>) throws(StoreError) {
            guard rawBytes.count == 32 else {
                throw .invalidArgument(
                    .encryptionKey, reason: "a key is 32 bytes, not \(rawBytes.count)")
            }
            material = .bytes(SymmetricKey(data: Array(rawBytes)))
        }

        private init(material: Material) { self.material = material }

        /// A new key of 32 random bytes from the system's generator.
        public static func random() -> EncryptionKey {
            EncryptionKey(material: .bytes(SymmetricKey(size: .bits256)))
        }

        /// The key a passphrase gives: scrypt (N = 2¹⁵, r = 8, p = 1: 32 MiB and about a tenth
        /// of a second) over the passphrase's UTF-8 bytes with the store's random salt, recorded
        /// when the store is created. For tools that must start from a passphrase; an app should
        /// keep a ``random()`` key instead.
        public static func passphrase(_ passphrase: String) -> EncryptionKey {
            EncryptionKey(material: .passphrase(Array(passphrase.utf8)))
        }

        /// Calls `body` with the key's 32 bytes, to keep them; `nil` for a passphrase, whose
        /// bytes depend on the store it opens.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R?
        {
            guard case .bytes(let key) = material else { return nil }
            return try key.withUnsafeBytes(body)
        }
    }
#endif
