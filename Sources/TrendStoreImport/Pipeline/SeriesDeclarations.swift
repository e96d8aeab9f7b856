import TrendStore

/// What a file has declared for each series so far: its unit and kind, and the ranks of
/// its sources in its priority order. A record declaring otherwise stops the import at its
/// line, before anything of its batch is written.
struct SeriesDeclarations {
    let file: String
    /// The source of records that name none (``ImportOptions/defaultSource``).
    let defaultSource: String?
    private var units: [String: String] = [:]
    private var kinds: [String: SeriesKind] = [:]
    /// Each series' ranked sources: the rank of each, and the source of each rank.
    private var ranks: [String: (ofSource: [String: Int], ofRank: [Int: String])] = [:]

    init(file: String, defaultSource: String?) {
        self.file = file
        self.defaultSource = defaultSource
    }

    /// The priority order the ranks give each series that has any: its ranked sources,
    /// lowest rank first.
    var orders: [String: [String]] {
        ranks.mapValues { $0.ofRank.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Records what `entry` declares, first read on `line`.
    ///
    /// - Throws: ``ImportError`` naming the line and field when it differs from what the
    ///   file declared earlier for the series: another unit or kind, another rank for the
    ///   source, or a rank another source holds.
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
        if let rank = entry.rank { try note(rank, of: entry, line: line) }
    }

    /// Records that `entry`'s source has `rank` in its series' order.
    private mutating func note(_ rank: Int, of entry: ParsedSlice.Entry, line: Int)
        throws(ImportError)
    {
        let source = entry.source ?? defaultSource.map(SeriesName.normalized) ?? ""
        var known = ranks[entry.series] ?? ([:], [:])
        if let earlier = known.ofSource[source], earlier != rank {
            throw ImportError(
                file: file, line: line, field: "priority",
                reason:
                    "\(rank) differs from \(earlier), given earlier to source \"\(SourceName.display(source))\" of series \(entry.series)"
            )
        }
        if let holder = known.ofRank[rank], holder != source {
            throw ImportError(
                file: file, line: line, field: "priority",
                reason:
                    "\(rank) is the rank of source \"\(SourceName.display(holder))\" of series \(entry.series) already"
            )
        }
        known.ofSource[source] = rank
        known.ofRank[rank] = source
        ranks[entry.series] = known
    }
}
