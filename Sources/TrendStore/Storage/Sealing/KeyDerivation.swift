#if Encryption
    import Crypto
    import _CryptoExtras

    /// How a passphrase becomes a store's key: the `key-derivation` record of `meta` (FORMAT.md),
    /// `scheme (1: scrypt) ‖ log2 N (1 byte) ‖ r (u32 LE) ‖ p (u32 LE) ‖ salt (16 bytes)`.
    struct KeyDerivation: Equatable {
        /// log2 of scrypt's cost N.
        let logRounds: UInt8
        /// scrypt's block size r.
        let blockSize: UInt32
        /// scrypt's parallelism p.
        let parallelism: UInt32
        /// The store's random salt.
        let salt: [UInt8]

        /// The parameters a new store records, with a fresh salt.
        static func fresh() -> KeyDerivation {
            KeyDerivation(
                logRounds: 15, blockSize: 8, parallelism: 1,
                salt: SymmetricKey(size: SymmetricKeySize(bitCount: 128)).withUnsafeBytes(
                    Array.init))
        }

        /// The record's bytes.
        var encoded: [UInt8] {
            [1, logRounds] + withUnsafeBytes(of: blockSize.littleEndian, Array.init)
                + withUnsafeBytes(of: parallelism.littleEndian, Array.init) + salt
        }

        /// The parameters a record holds; `nil` when it is not one this version reads or asks
        /// for more than 1 GiB or a parallelism above 16 (a damaged or hostile file).
        init?(encoded bytes: [UInt8]) {
            guard bytes.count == 26, bytes[0] == 1, (10...20).contains(bytes[1]) else { return nil }
            let (r, p) = bytes.withUnsafeBytes {
                ($0.littleEndian(at: 2, as: UInt32.self), $0.littleEndian(at: 6, as: UInt32.self))
            }
            guard (1...32).contains(r), (1...16).contains(p),
                128 * Int(r) << Int(bytes[1]) <= 1 << 30
            else { return nil }
            self.init(logRounds: bytes[1], blockSize: r, parallelism: p, salt: Array(bytes[10...]))
        }

        private init(logRounds: UInt8, blockSize: UInt32, parallelism: UInt32, salt: [UInt8]) {
            self.logRounds = logRounds
            self.blockSize = blockSize
            self.parallelism = parallelism
            self.salt = salt
        }

        /// The 32-byte key `passphrase` gives with these parameters.
        func key(from passphrase: [UInt8]) throws -> SymmetricKey {
            try KDF.Scrypt.deriveKey(
                from: passphrase, salt: salt, outputByteCount: 32, rounds: 1 << Int(logRounds),
                blockSize: Int(blockSize), parallelism: Int(parallelism),
                maxMemory: 130 * Int(blockSize) << Int(logRounds) + (1 << 20))
        }
    }
#endif
