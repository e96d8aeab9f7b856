#if Encryption
    import Crypto
    import Foundation

    /// Seals and opens the values of an encrypted store (FORMAT.md, "Encrypted stores"): AES-256-GCM
    /// with a fresh random 96-bit nonce per value and the store's seal id, the value's database
    /// name and LMDB key as associated data, so a value moved under another key, into another
    /// database or into another store fails to open.
    ///
    /// A sealed value is `scheme (1 byte) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`: scheme 2 names
    /// the seal id in its associated data; scheme 1, a store's before format 7, does not, and
    /// opens only in a store whose migration is resealing it (``StoreSeal``).
    struct ValueSealer: Sendable {
        private let key: SymmetricKey
        /// The key of the keyed hash that blinds text keys in a store without a seal id,
        /// derived from `key` alone.
        private let unboundBlindingKey: SymmetricKey
        /// The store's seal id, as this handle last read it.
        let storeSeal = StoreSeal()
        /// Plaintexts opened or sealed lately, shared by the copies of this sealer.
        let opened = OpenedValueCache()
        /// The blinded parts computed lately.
        private let blindedParts = BlindedParts()

        /// The scheme byte of a value sealed without a seal id (formats 1 to 6).
        static let unboundScheme: UInt8 = 1
        /// The scheme byte of a value sealed with the store's seal id (format 7).
        static let boundScheme: UInt8 = 2
        /// The bytes a sealed value adds to its plaintext: the scheme byte, nonce and tag.
        static let overhead = 1 + 12 + 16
        /// The cipher's name, as `meta` records it and `info` prints it.
        static let cipherName = "AES-256-GCM"

        /// A sealer with the 32 bytes of `key`.
        init(key: SymmetricKey) {
            self.key = key
            unboundBlindingKey = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: key, info: Array("trendstore key blinding".utf8),
                outputByteCount: 32)
        }

        /// Records `id` as the store's seal id (``StoreSeal``), `resealing` while the migration
        /// to format 7 has values sealed without it left.
        func bind(_ id: [UInt8], resealing: Bool) {
            storeSeal.bind(id, key: key, resealing: resealing)
            blindedParts.removeAll()
        }

        /// A fresh random seal id for a store this sealer's key seals.
        func freshSealID() -> [UInt8] { StoreSeal.freshID() }

        /// Whether this handle knows of no seal id: the store was of format 6 or older when
        /// it was read.
        var isUnbound: Bool {
            if case .unbound = storeSeal.current { return true }
            return false
        }

        /// The first 12 bytes of HMAC-SHA-256 of `component` under the blinding key (salted
        /// with the seal id once there is one): what an encrypted store keeps of one part of a
        /// text key (a series name, a cache key's part).
        func blind(_ component: some DataProtocol) -> [UInt8] {
            let blindingKey =
                switch storeSeal.current {
                case .unbound: unboundBlindingKey
                case .resealing(let binding), .bound(let binding): binding.blindingKey
                }
            return blindedParts.blinded(Array(component)) { part in
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
            let (scheme, id): (UInt8, [UInt8]) =
                switch storeSeal.current {
                case .unbound: (Self.unboundScheme, [])
                case .resealing(let binding), .bound(let binding): (Self.boundScheme, binding.id)
                }
            let box = try AES.GCM.seal(
                plaintext, using: key, authenticating: Self.associatedData(id, table, entryKey))
            var sealed: [UInt8] = []
            sealed.reserveCapacity(plaintext.count + Self.overhead)
            sealed.append(scheme)
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
        ///   from another key or another store, another key, or a value sealed without a seal
        ///   id in a store whose values all have one.
        func open(
            _ sealed: UnsafeRawBufferPointer, table: String, key entryKey: UnsafeRawBufferPointer
        ) throws -> OpenedPlaintext {
            guard sealed.count >= Self.overhead, let id = sealID(opening: sealed[0]) else {
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
                    box, using: key, authenticating: Self.associatedData(id, table, entryKey))
                plaintext = opened.withUnsafeBytes { OpenedPlaintext(copying: $0) }
            } catch {
                throw SealedValueDamage(table: table, key: Array(entryKey))
            }
            opened.keep(plaintext, of: sealed, key: cacheKey, table: table, entryKey: entryKey)
            return plaintext
        }

        /// The seal id a value of `scheme` names in its associated data (empty for scheme 1);
        /// `nil` when the store, as this handle last read it, has no such values.
        private func sealID(opening scheme: UInt8) -> [UInt8]? {
            switch (scheme, storeSeal.current) {
            case (Self.unboundScheme, .unbound), (Self.unboundScheme, .resealing): []
            case (Self.boundScheme, .resealing(let binding)),
                (Self.boundScheme, .bound(let binding)):
                binding.id
            default: nil
            }
        }

        /// The associated data of the entry `key` of database `table` in the store of seal id
        /// `id` (empty for a value sealed without one): the id, the table's name, a zero byte,
        /// then the key.
        private static func associatedData(
            _ id: [UInt8], _ table: String, _ key: some DataProtocol
        ) -> [UInt8] {
            id + Array(table.utf8) + [0] + Array(key)
        }
    }
#else
    /// Without the `Encryption` trait no store is encrypted: a sealer cannot be made.
    enum ValueSealer: Sendable {
        /// The scheme byte of a value sealed without a seal id, as in the sealer of the trait.
        static let unboundScheme: UInt8 = 1

        /// Never called: no sealer exists.
        func blind(_: some Collection<UInt8>) -> [UInt8] {
            switch self {}
        }

        /// Never called: no sealer exists.
        func bind(_: [UInt8], resealing: Bool) {
            switch self {}
        }

        /// Never called: no sealer exists.
        var isUnbound: Bool {
            switch self {}
        }

        /// Never called: no sealer exists.
        func freshSealID() -> [UInt8] {
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
/// was moved from under another key or from another store, or the store's key is another.
struct SealedValueDamage: Error, CustomStringConvertible {
    /// The database holding the value.
    let table: String
    /// The value's LMDB key.
    let key: [UInt8]

    /// Why such a value is damaged.
    static let reason =
        "fails authentication: its bytes changed, or it was moved from another key or another store"

    /// The key, as text when it is text (a `meta` record's), else by its length.
    var recordName: String {
        String(validating: key, as: UTF8.self).flatMap {
            $0.unicodeScalars.allSatisfy { $0.value >= 0x20 } ? "\"\($0)\"" : nil
        } ?? "of a \(key.count)-byte key"
    }

    var description: String { "\(table) record \(recordName): \(Self.reason)" }
}
