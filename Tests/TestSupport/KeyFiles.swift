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
#endif
