/// The one rule by which a table reads the rows of some keys within a range of keys: one
/// cursor walk over the range, or a lookup per key.
enum WalkOrLookUp {
    /// Whether one cursor walk over `span` keys reads `wanted` of them for less than a lookup
    /// each. A cursor step costs about a tenth of a lookup's descent, so walk unless fewer
    /// than one key in eight is wanted, or too few (two or fewer) to pay for opening a cursor.
    static func walks(wanted: Int, span: Int) -> Bool {
        wanted > 2 && wanted * 8 >= span
    }
}
