#if Encryption
    import Crypto
    import Foundation

    /// Seals and opens the values of an encrypted store (FORMAT.md, "Encrypted stores"): AES-256-GCM
    /// with a fresh random 96-bit nonce per value and the value's database name and LMDB key as
    /// associated data, so a value moved under another key or into another database fails to open.
    ///
    /// A sealed value is `scheme (1 byte, 1) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`.
    struct ValueSealer: Sendable {
        private let key: SymmetricKey
        /// The key of the keyed hash that blinds text keys (``blind(_:)``), derived from `key`.
        private let blindingKey: SymmetricKey
        /// Plaintexts opened or sealed lately, shared by the copies of this sealer.
        let opened = OpenedValueCache()
        /// The blinded parts computed lately.
        private let blindedParts = BlindedParts()

        /// The scheme byte that opens every sealed value.
        static let scheme: UInt8 = 1
        /// The bytes a sealed value adds to its plaintext: the scheme byte, nonce and tag.
        static let overhead = 1 + 12 + 16
        /// The cipher's name, as `meta` records it and `info` prints it.
        static let cipherName = "AES-256-GCM"

        /// A sealer with the 32 bytes of `key`.
        init(key: SymmetricKey) {
            self.key = key
            blindingKey = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: key, info: Array("trendstore key blinding".utf8),
                outputByteCount: 32)
        }

        /// The first 12 bytes of HMAC-SHA-256 of `component` under the blinding key: what an
        /// encrypted store keeps of one part of a text key (a series name, a cache key's part).
        func blind(_ component: some DataProtocol) -> [UInt8] {
            blindedParts.blinded(Array(component)) { part in
                Array(HMAC<SHA256>.authenticationCode(for: part, using: blindingKey).prefix(12))
            }
        }

        /// `plaintext` sealed for the entry `key` of database `table`.
        ///
        /// A value of at most ``keptWhenSealed`` bytes is also kept among the plaintexts opened
        /// lately, under the sealed bytes it gave: the next commit reads the day row, hour
        /// summary and tail block this one wrote, and would otherwise open them again. The
        /// entry answers only for exactly these sealed bytes under this database and key; a
        /// commit that aborts leaves an entry no stored value matches (each seal draws a fresh
        /// nonce).
        func seal(_ plaintext: UnsafeRawBufferPointer, table: String, key entryKey: [UInt8]) throws
            -> [UInt8]
        {
            let box = try AES.GCM.seal(
                plaintext, using: key, authenticating: Self.associatedData(table, entryKey))
            var sealed: [UInt8] = []
            sealed.reserveCapacity(plaintext.count + Self.overhead)
            sealed.append(Self.scheme)
            sealed.append(contentsOf: box.nonce)
            sealed.append(contentsOf: box.ciphertext)
            sealed.append(contentsOf: box.tag)
            if plaintext.count <= Self.keptWhenSealed {
                sealed.withUnsafeBytes { sealed in
                    entryKey.withUnsafeBytes { entryKey in
                        opened.keep(
                            OpenedPlaintext(copying: plaintext), of: sealed,
                            key: OpenedValueCache.Key(sealed), table: table, entryKey: entryKey)
                    }
                }
            }
            return sealed
        }

        /// The largest plaintext ``seal(_:table:key:)`` keeps as opened: a commit's rows,
        /// summaries and tail block, not the full blocks of an import, which are seldom read
        /// back soon.
        static let keptWhenSealed = 4_096

        /// The plaintext of `sealed`, the entry `key` of database `table`.
        ///
        /// - Throws: ``SealedValueDamage`` when it does not open: a changed byte, a value moved
        ///   from another key, or another key.
        func open(
            _ sealed: UnsafeRawBufferPointer, table: String, key entryKey: UnsafeRawBufferPointer
        ) throws -> OpenedPlaintext {
            guard sealed.count >= Self.overhead, sealed[0] == Self.scheme else {
                throw SealedValueDamage(table: table, key: Array(entryKey))
            }
            let cacheKey = OpenedValueCache.Key(sealed)
            if let plaintext = opened.plaintext(
                of: sealed, key: cacheKey, table: table, entryKey: entryKey)
            {
                return plaintext
            }
            let plaintext: OpenedPlaintext
            do {
                let box = try AES.GCM.SealedBox(
                    nonce: AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: sealed[1..<13])),
                    ciphertext: UnsafeRawBufferPointer(rebasing: sealed[13..<(sealed.count - 16)]),
                    tag: UnsafeRawBufferPointer(rebasing: sealed[(sealed.count - 16)...]))
                let opened = try AES.GCM.open(
                    box, using: key, authenticating: Self.associatedData(table, entryKey))
                plaintext = opened.withUnsafeBytes { OpenedPlaintext(copying: $0) }
            } catch {
                throw SealedValueDamage(table: table, key: Array(entryKey))
            }
            opened.keep(plaintext, of: sealed, key: cacheKey, table: table, entryKey: entryKey)
            return plaintext
        }

        /// The associated data of the entry `key` of database `table`: the table's name, a zero
        /// byte, then the key.
        private static func associatedData(_ table: String, _ key: some DataProtocol) -> [UInt8] {
            Array(table.utf8) + [0] + Array(key)
        }
    }
#else
    /// Without the `Encryption` trait no store is encrypted: a sealer cannot be made.
    enum ValueSealer: Sendable {
        /// Never called: no sealer exists.
        func blind(_: some Collection<UInt8>) -> [UInt8] {
            switch self {}
        }

        /// Never called: no sealer exists.
        func seal(_: UnsafeRawBufferPointer, table: String, key: [UInt8]) -> [UInt8] {
            switch self {}
        }

        /// Never called: no sealer exists.
        func open(_: UnsafeRawBufferPointer, table: String, key: UnsafeRawBufferPointer)
            -> OpenedPlaintext
        {
            switch self {}
        }
    }
#endif

/// Thrown when a sealed value of an encrypted store does not open: a byte of it changed, it
/// was moved from under another key, or the store's key is another.
struct SealedValueDamage: Error, CustomStringConvertible {
    /// The database holding the value.
    let table: String
    /// The value's LMDB key.
    let key: [UInt8]

    /// Why such a value is damaged.
    static let reason =
        "fails authentication: its bytes changed, or it was moved from another key"

    /// The key, as text when it is text (a `meta` record's), else by its length.
    var recordName: String {
        String(validating: key, as: UTF8.self).flatMap {
            $0.unicodeScalars.allSatisfy { $0.value >= 0x20 } ? "\"\($0)\"" : nil
        } ?? "of a \(key.count)-byte key"
    }

    var description: String { "\(table) record \(recordName): \(Self.reason)" }
}
