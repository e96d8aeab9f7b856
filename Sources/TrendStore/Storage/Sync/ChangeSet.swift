/// What one store committed after an anchor, for another store to apply: the samples
/// written (with the version of each), the deletions, the priority orders, and the
/// declarations (unit, kind) of the series they name.
///
/// Get one from ``TrendStore/changes(since:)``, carry it as bytes (``encoded()``, split by
/// ``parts(maximumBytes:maximumRecords:)`` to fit a transport) and give it to another
/// store's ``TrendStore/apply(_:)``. Applying is idempotent, and stores that exchange change
/// sets in any order converge (the conflict rule is in the article *Syncing stores*).
public struct ChangeSet: Sendable, Equatable {
    /// One series as a change set declares it.
    struct Declaration: Equatable, Sendable {
        var series: String
        var unit: String
        var kind: SeriesKind
    }

    /// Samples of one source of one series, each with the version of its last write.
    struct Written: Equatable, Sendable {
        var series: String
        /// The source (NFC; empty for the default source).
        var source: String
        /// Sorted by start, then end.
        var samples: [Sample]
        /// `versions[i]` is the version of `samples[i]`.
        var versions: [ChangeVersion]
    }

    /// The position of the newest commit the set covers, in its store's feed: where the next
    /// ``TrendStore/changes(since:)`` of that store starts.
    public let anchor: ChangeAnchor
    var declarations: [Declaration]
    var written: [Written]
    var deletions: [SampleDeletion]
    var priorities: [PriorityChange]

    init(
        anchor: ChangeAnchor, declarations: [Declaration] = [], written: [Written] = [],
        deletions: [SampleDeletion] = [], priorities: [PriorityChange] = []
    ) {
        self.anchor = anchor
        self.declarations = declarations
        self.written = written
        self.deletions = deletions
        self.priorities = priorities
    }

    /// How many samples the set writes.
    public var sampleCount: Int { written.reduce(0) { $0 + $1.samples.count } }
    /// How many deletions (of ranges of samples, or of whole series) it carries.
    public var deletionCount: Int { deletions.count }
    /// How many priority orders it carries.
    public var priorityCount: Int { priorities.count }
    /// Whether it changes nothing.
    public var isEmpty: Bool { written.isEmpty && deletions.isEmpty && priorities.isEmpty }
}
