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
        /// `ids[i]` is the id of `samples[i]`; empty when no sample has one.
        var ids: [SampleID?] = []

        /// Adds `sample` with its version and id.
        mutating func append(_ sample: Sample, version: ChangeVersion, id: SampleID?) {
            if !ids.isEmpty || id != nil {
                if ids.isEmpty { ids = Array(repeating: nil, count: samples.count) }
                ids.append(id)
            }
            samples.append(sample)
            versions.append(version)
        }

        /// The samples `range`, with their versions and ids.
        func slice(_ range: Range<Int>) -> Written {
            Written(
                series: series, source: source, samples: Array(samples[range]),
                versions: Array(versions[range]), ids: ids.isEmpty ? [] : Array(ids[range]))
        }

        /// Appends `other`'s samples (of the same series and source, after these).
        mutating func append(contentsOf other: Written) {
            if !ids.isEmpty || !other.ids.isEmpty {
                if ids.isEmpty { ids = Array(repeating: nil, count: samples.count) }
                ids +=
                    other.ids.isEmpty
                    ? Array(repeating: nil, count: other.samples.count) : other.ids
            }
            samples += other.samples
            versions += other.versions
        }
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
    /// One sample the set writes, as a mirror that does not apply change sets reads it.
    public struct WrittenSample: Sendable, Equatable {
        /// The series' name.
        public let series: String
        /// The source's name (empty for the default source).
        public let source: String
        /// The sample.
        public let sample: Sample
        /// Its id, when its last write gave it one.
        public let id: SampleID?
    }

    /// The samples it writes, in series, source and time order.
    public var writtenSamples: [WrittenSample] {
        written.flatMap { group in
            group.samples.indices.map {
                WrittenSample(
                    series: group.series, source: group.source, sample: group.samples[$0],
                    id: group.ids.isEmpty ? nil : group.ids[$0])
            }
        }
    }

    /// The ids of the samples it writes that have one (``SampleID``), in series, source
    /// and time order: what a mirror keyed by ids updates.
    public var writtenSampleIDs: [SampleID] { written.flatMap { $0.ids.compactMap { $0 } } }
    /// The ids of the samples it deletes by id (``TrendStore/deleteSamples(withIDs:from:)``):
    /// what a mirror keyed by ids removes.
    public var deletedSampleIDs: [SampleID] { deletions.compactMap { $0.sample?.id } }
    /// Whether it changes nothing.
    public var isEmpty: Bool { written.isEmpty && deletions.isEmpty && priorities.isEmpty }
}
