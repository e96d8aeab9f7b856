#if Encryption
    import Crypto

    /// Seals the bytes of a change set (``ChangeSet/encoded(sealedWith:)``) so that a server
    /// relaying them learns only their size, and opens them again with the same key.
    ///
    /// Layout: `TSCE`, the version (1), the length of a key-derivation record (1 byte: 0, or
    /// 26 for a passphrase), that record (as `meta`'s `key-derivation`: scrypt's parameters and
    /// a fresh salt), a random 12-byte nonce, then AES-256-GCM's ciphertext of the change set's
    /// bytes and its 16-byte tag, with everything before the nonce as associated data. The key
    /// is HKDF-SHA-256 of the 32 key bytes (a passphrase's: scrypt's output under the record),
    /// info `trendstore change set`: never the key a store seals its values with.
    enum ChangeSetSealer {
        static let magic = ChangeSet.sealedMagic
        static let version: UInt8 = 1

        /// Whether `bytes` begin as sealed change sets do.
        static func isSealed(_ bytes: UnsafeRawBufferPointer) -> Bool {
            bytes.count >= 4 && bytes[0..<4].elementsEqual(magic)
        }

        /// `plaintext` (an encoded change set) sealed with `key`.
        static func seal(_ plaintext: [UInt8], with key: EncryptionKey) throws -> [UInt8] {
            var header = magic + [version]
            let bytes: SymmetricKey
            switch key.material {
            case .bytes(let raw):
                header.append(0)
                bytes = raw
            case .passphrase(let passphrase):
                let derivation = KeyDerivation.fresh()
                header.append(UInt8(derivation.encoded.count))
                header += derivation.encoded
                bytes = try derivation.key(from: passphrase)
            }
            let box = try AES.GCM.seal(
                plaintext, using: sealingKey(bytes), authenticating: header)
            return header + Array(box.nonce) + box.ciphertext + box.tag
        }

        /// The change set's bytes `sealed` holds.
        ///
        /// - Throws: ``StoreError/Code/damagedChangeSet`` for bytes that are not a sealed
        ///   change set of this version, or do not open with `key` (another key, or damage).
        static func open(_ sealed: UnsafeRawBufferPointer, with key: EncryptionKey)
            throws(StoreError) -> [UInt8]
        {
            guard isSealed(sealed), sealed.count >= 6 else {
                throw .damagedChangeSet(reason: "not a sealed change set")
            }
            guard sealed[4] == version else {
                throw .damagedChangeSet(
                    reason:
                        "sealed change set of version \(sealed[4]); this release reads \(version)")
            }
            let recordLength = Int(sealed[5])
            let headerLength = 6 + recordLength
            guard sealed.count >= headerLength + 12 + 16 else {
                throw .damagedChangeSet(reason: "sealed change set truncated")
            }
            let header = Array(sealed[0..<headerLength])
            let bytes: SymmetricKey
            switch (key.material, recordLength) {
            case (.bytes(let raw), 0):
                bytes = raw
            case (.passphrase(let passphrase), 26):
                guard let derivation = KeyDerivation(encoded: Array(header[6...])),
                    let derived = try? derivation.key(from: passphrase)
                else {
                    throw .damagedChangeSet(
                        reason: "a key-derivation record this release does not read")
                }
                bytes = derived
            case (.bytes, _):
                throw .damagedChangeSet(
                    reason: "sealed with a passphrase, opened with 32 key bytes")
            case (.passphrase, _):
                throw .damagedChangeSet(
                    reason: "sealed with 32 key bytes, opened with a passphrase")
            }
            do {
                let box = try AES.GCM.SealedBox(
                    nonce: AES.GCM.Nonce(
                        data: UnsafeRawBufferPointer(
                            rebasing: sealed[headerLength..<(headerLength + 12)])),
                    ciphertext: UnsafeRawBufferPointer(
                        rebasing: sealed[(headerLength + 12)..<(sealed.count - 16)]),
                    tag: UnsafeRawBufferPointer(rebasing: sealed[(sealed.count - 16)...]))
                return Array(
                    try AES.GCM.open(box, using: sealingKey(bytes), authenticating: header))
            } catch {
                throw .damagedChangeSet(
                    reason:
                        "the sealed change set does not open with this key: another key, or damaged bytes"
                )
            }
        }

        /// The key change sets are sealed with, from the 32 key bytes.
        private static func sealingKey(_ bytes: SymmetricKey) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: bytes, info: Array("trendstore change set".utf8),
                outputByteCount: 32)
        }
    }
#endif
