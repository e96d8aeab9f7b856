#if Encryption
    import Foundation
    import TrendStore

    /// The key in a file of 64 hexadecimal characters (what `trendstore keygen` writes);
    /// `nil` when a pair of characters is not hexadecimal.
    public func encryptionKey(inFile path: String) throws -> EncryptionKey? {
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return try EncryptionKey(rawBytes: bytes)
    }

    extension Fixtures {
        /// A copy of the committed encrypted store `relative` in `directory`
        /// (``copyOfStore(_:in:)``), and options holding its key, read from the `key.hex`
        /// committed beside it.
        public static func copyOfEncryptedStore(_ relative: String, in directory: URL) throws
            -> (URL, StoreOptions)
        {
            var options = StoreOptions()
            guard let key = try encryptionKey(inFile: path(relative) + "/key.hex") else {
                throw CocoaError(.fileReadCorruptFile)
            }
            options.encryptionKey = key
            return (try copyOfStore(relative, in: directory), options)
        }
    }
#endif
