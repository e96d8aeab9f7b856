/// Decides, when a store opens, whether and with which key its values are sealed: from the
/// encryption records its `meta` keeps in the clear and the key the handle was given.
enum StoreEncryption {
    /// The sealer of an existing store whose `meta` holds `records` (`nil`: a plain store),
    /// opened with `options`' key; `nil` for a plain store. Whether the key is the store's is
    /// for the key-check record to tell.
    ///
    /// - Throws: ``StoreError/Code/encryptionKeyRequired`` for an encrypted store
    ///   opened without a key, ``StoreError/Code/notEncrypted`` for a plain store opened
    ///   with one, ``StoreError/Code/wrongEncryptionKey`` for a passphrase given to a store
    ///   created with 32 bytes, ``StoreError/Code/incompatibleFormat`` for a cipher or key
    ///   derivation this version does not read.
    static func sealer(for records: EncryptionRecords?, options: StoreOptions, path: String)
        throws -> ValueSealer?
    {
        #if Encryption
            guard let records else {
                if options.encryptionKey != nil { throw StoreError.notEncrypted(path: path) }
                return nil
            }
            guard let key = options.encryptionKey else {
                throw StoreError.encryptionKeyRequired(
                    path: path, reason: "encrypted (\(records.cipher)); open it with its key")
            }
            guard records.cipher == ValueSealer.cipherName else {
                throw StoreError.incompatibleFormat(
                    "encrypted with \(records.cipher), which this TrendStore does not read")
            }
            let sealer: ValueSealer
            switch key.material {
            case .bytes(let bytes):
                sealer = ValueSealer(key: bytes)
            case .passphrase(let passphrase):
                guard let recorded = records.derivation else {
                    throw StoreError.wrongEncryptionKey(path: path)
                }
                guard let derivation = KeyDerivation(encoded: recorded) else {
                    throw StoreError.incompatibleFormat(
                        "a key-derivation record this TrendStore does not read")
                }
                sealer = ValueSealer(key: try derivation.key(from: passphrase))
            }
            // Until the tables say whether its migration still reseals, both kinds open.
            if let id = records.sealID {
                guard id.count == StoreSeal.idByteCount else {
                    throw StoreError.incompatibleFormat(
                        "a seal-id record of \(id.count) bytes instead of \(StoreSeal.idByteCount)")
                }
                sealer.bind(id, resealing: true)
            }
            return sealer
        #else
            guard let records else { return nil }
            throw StoreError.encryptionKeyRequired(
                path: path,
                reason:
                    "encrypted (\(records.cipher)), and this build of TrendStore has no encryption (package trait Encryption)"
            )
        #endif
    }

    /// The encryption records and sealer of a store `options` creates, with a fresh seal id
    /// (``StoreSeal``); `nil` when it is plain.
    static func newStore(options: StoreOptions) throws -> (EncryptionRecords, ValueSealer)? {
        #if Encryption
            guard let key = options.encryptionKey else { return nil }
            let id = StoreSeal.freshID()
            let made: (EncryptionRecords, ValueSealer)
            switch key.material {
            case .bytes(let bytes):
                made = (
                    EncryptionRecords(cipher: ValueSealer.cipherName, derivation: nil, sealID: id),
                    ValueSealer(key: bytes)
                )
            case .passphrase(let passphrase):
                let derivation = KeyDerivation.fresh()
                made = (
                    EncryptionRecords(
                        cipher: ValueSealer.cipherName, derivation: derivation.encoded, sealID: id),
                    ValueSealer(key: try derivation.key(from: passphrase))
                )
            }
            made.1.bind(id, resealing: false)
            return made
        #else
            return nil
        #endif
    }
}
