/// Thrown when a stored rollup row or hour summary cannot be read: its checksum, layout
/// byte or fields are not what a writer of format 1 leaves.
struct RowDamage: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }

    init(reason: String) { self.reason = reason }

    /// The damage an error thrown while reading a row stands for: itself when it is one,
    /// else the row ended early (``ByteReader/Truncated``).
    init(readError error: any Error) {
        self = error as? RowDamage ?? RowDamage(reason: "truncated rollup row")
    }
}
