/// Checks series names against the store's rules.
enum SeriesName {
    /// The longest name, in UTF-8 bytes.
    static let maximumByteCount = 255

    /// Throws ``StoreError/invalidSeriesName(_:reason:)`` unless `name` is 1 to 255 UTF-8 bytes.
    static func validate(_ name: String) throws(StoreError) {
        let bytes = name.utf8.count
        if bytes == 0 { throw .invalidSeriesName(name, reason: "the name is empty") }
        if bytes > maximumByteCount {
            throw .invalidSeriesName(
                name, reason: "the name is \(bytes) UTF-8 bytes; at most 255 are allowed")
        }
    }
}
