import TrendStore

/// The unit and kind a file has named for each series so far: a record naming another
/// stops the import at its line, before anything of its batch is written.
struct NamedUnitsAndKinds {
    let file: String
    private var units: [String: String] = [:]
    private var kinds: [String: SeriesKind] = [:]

    init(file: String) { self.file = file }

    /// Records what `entry` names, first read on `line`.
    ///
    /// - Throws: ``ImportError`` naming the line and field when it differs from what the
    ///   file named earlier for the series.
    mutating func check(_ entry: ParsedSlice.Entry, line: Int) throws(ImportError) {
        if let unit = entry.unit {
            if let known = units[entry.series], known != unit {
                throw ImportError(
                    file: file, line: line, field: "unit",
                    reason: "\(unit) differs from \(known), used earlier for series \(entry.series)"
                )
            }
            units[entry.series] = unit
        }
        if let kind = entry.kind {
            if let known = kinds[entry.series], known != kind {
                throw ImportError(
                    file: file, line: line, field: "kind",
                    reason:
                        "\(kind.rawValue) differs from \(known.rawValue), used earlier for series \(entry.series)"
                )
            }
            kinds[entry.series] = kind
        }
    }
}
