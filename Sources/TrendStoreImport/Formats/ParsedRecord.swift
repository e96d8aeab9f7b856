import TrendStore

/// One record read from an input file: a sample for a series, or a record that is malformed.
enum ParsedRecord {
    /// A sample read on `line`; `unit` and `kind` are `nil` when the file does not say (the
    /// series' own are then kept, or the import's defaults given to a new series), `source`
    /// when the record names none (the import's default source is then used), `rank` when
    /// it gives its source no place in the series' priority order (``SourceRank``).
    case sample(
        series: String, unit: String?, kind: SeriesKind?, source: String?, rank: Int? = nil,
        sample: Sample, line: Int)
    /// A malformed record, with where and why (boxed: errors are rare and large, and every
    /// record is returned by value).
    indirect case invalid(ImportError)
    /// A well-formed record the format's rules leave out (a type not imported, a duplicate source), with why.
    case ignored(reason: String)
}

/// A streaming reader of one file format.
protocol RecordParser: AnyObject {
    /// The next record, or `nil` at the end of the file.
    ///
    /// - Throws: ``ImportError`` for a problem with the whole file (it cannot go on).
    func next() throws(ImportError) -> ParsedRecord?
    /// How many bytes of the file have been read, for progress.
    var bytesConsumed: Int { get }
    /// The size of what the parser reads, for progress.
    var totalBytes: Int { get }
}

/// What an importer says of text that is not UTF-8.
let notUTF8 =
    "is not valid UTF-8 (is the file in another encoding, such as Latin-1? Save it as UTF-8)"
