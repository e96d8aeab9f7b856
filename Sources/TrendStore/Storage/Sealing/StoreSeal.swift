#if Encryption
    import Crypto
    import Synchronization

    /// How an encrypted store's values are bound to the store (FORMAT.md, format 7): the
    /// store's random seal id, named in every value's associated data and salting the key that
    /// blinds its text keys, so a value or a blinded name copied from another store under the
    /// same key does not open or match.
    ///
    /// Shared by the copies of one handle's ``ValueSealer``. A store of format 6 or older has
    /// no seal id (``State/unbound``); the migration to format 7 gives it one and reseals its
    /// values in batches (``State/resealing``), after which values sealed the old way are
    /// refused (``State/bound``).
    final class StoreSeal: Sendable {
        /// Where the store's binding stands, as this handle last read it.
        enum State: Sendable {
            /// No seal id: values sealed without one, keys blinded under the store key alone.
            case unbound
            /// A seal id whose migration is still resealing: values sealed with and without
            /// it both open, new ones are sealed with it, keys are blinded with it.
            case resealing(Binding)
            /// A seal id every value is sealed with.
            case bound(Binding)
        }

        /// A seal id and the blinding key it salts.
        struct Binding: Sendable {
            /// The store's 16 random bytes.
            let id: [UInt8]
            /// HKDF-SHA-256 of the store key, salted with `id`.
            let blindingKey: SymmetricKey
        }

        private let state = Mutex(State.unbound)

        /// The binding as this handle last read it.
        var current: State { state.withLock { $0 } }

        /// Records `id` as the store's seal id, `resealing` while its migration runs.
        func bind(_ id: [UInt8], key: SymmetricKey, resealing: Bool) {
            let binding = Binding(
                id: id,
                blindingKey: HKDF<SHA256>.deriveKey(
                    inputKeyMaterial: key, salt: id, info: Array("trendstore key blinding".utf8),
                    outputByteCount: 32))
            state.withLock { $0 = resealing ? .resealing(binding) : .bound(binding) }
        }

        /// The number of bytes of a seal id.
        static let idByteCount = 16

        /// A fresh random seal id.
        static func freshID() -> [UInt8] {
            SymmetricKey(size: SymmetricKeySize(bitCount: idByteCount * 8)).withUnsafeBytes(
                Array.init)
        }
    }
#endif
