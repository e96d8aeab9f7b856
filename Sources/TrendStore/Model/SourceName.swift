/// The rules of source names (the device or app a sample came from: `Apple Watch`,
/// `iPhone`, `Strava`): stored and compared in Unicode NFC, at most 255 UTF-8 bytes, any
/// characters.
///
/// The empty name is the *default source*: the one every write that names no source goes
/// to, so a store written without sources holds exactly one source per series.
public enum SourceName {
    /// The default source's name: the empty string.
    public static let defaultSource = ""
    /// The longest name, in UTF-8 bytes after normalisation.
    public static let maximumByteCount = 255

    /// The normalised name, checked against the length rule.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` (``StoreError/Argument/source``)
    ///   for a name longer than 255 UTF-8 bytes.
    public static func validated(_ name: String) throws(StoreError) -> String {
        let normal = SeriesName.normalized(name)
        let bytes = normal.utf8.count
        if bytes > maximumByteCount {
            throw .invalidArgument(
                .source,
                reason:
                    "source \"\(normal.prefix(40))…\" is \(bytes) UTF-8 bytes; at most 255 are allowed"
            )
        }
        return normal
    }

    /// How `name` is shown: itself, or `(default)` for the default source.
    public static func display(_ name: String) -> String {
        name.isEmpty ? "(default)" : name
    }
}
