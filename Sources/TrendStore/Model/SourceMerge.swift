/// What a sample of the merged view of several sources stands for (``SourceMerge``).
enum SampleRole: UInt8, Sendable {
    /// A sample no higher source covers: it counts whole, as a sample of one source does.
    case whole
    /// An uncovered piece of a partly covered sample, its value the sample's share of the
    /// piece: it is prorated, never counted.
    case piece
    /// The start of a partly covered sample that counts as a sample (more than half of its
    /// time uncovered): its value, the sample's uncovered share, is the sample's value on
    /// its start's date, and it counts there; it is never prorated.
    case countedHead
    /// As ``countedHead``, for a sample with half its time or less uncovered: its value
    /// counts on its start's date, the sample itself does not.
    case uncountedHead
}

/// Samples in the merged view of a series' sources, sorted by start then end, each with
/// its role (``SampleRole``).
struct MergedSamples: Sendable {
    var samples: [Sample] = []
    var roles: [SampleRole] = []
}

/// The rule by which several sources of one cumulative series merge: at every instant the
/// highest-priority source whose sample covers it counts.
///
/// A sample of source s over [a, b) with value v counts v × (the time of [a, b) that no
/// sample of a source ranked above s covers) / (b − a), spread evenly over its uncovered
/// time; an instant sample (a = b) counts whole when no higher source's sample covers its
/// instant (intervals are half-open), and not at all otherwise; instants cover nothing;
/// samples of one source never merge with each other. A partly covered sample is given as
/// its head and its uncovered pieces (``SampleRole``); a wholly covered one drops out.
/// Discrete series merge nothing: every source's samples count whole.
enum SourceMerge {
    /// The merged view of `streams` (each one source's samples sorted by start then end,
    /// highest priority first), keeping the samples that start in `starts`; without
    /// `pieces`, a partly covered sample is given by its head alone (enough for counts and
    /// start sums).
    ///
    /// `streams` must hold every sample that overlaps a kept one, from every source.
    static func merge(
        _ streams: [[Sample]], kind: SeriesKind, keepingStartsIn starts: ClosedRange<Int64>,
        pieces: Bool = true
    ) -> MergedSamples {
        var merged = MergedSamples()
        // One source with samples: nothing to merge.
        if kind == .discrete || streams.lazy.filter({ !$0.isEmpty }).count <= 1 {
            for stream in streams {
                for sample in stream where starts.contains(sample.startMilliseconds) {
                    merged.append(sample, .whole)
                }
            }
            if kind == .discrete { merged.sort() }
            return merged
        }
        var covered: [Range<Int64>] = []
        for stream in streams {
            for sample in stream where starts.contains(sample.startMilliseconds) {
                add(sample, coveredBy: covered, pieces: pieces, to: &merged)
            }
            covered = union(covered, stream)
        }
        merged.sort()
        return merged
    }

    /// Adds what `sample` counts for outside `covered` (sorted, disjoint) to `merged`.
    private static func add(
        _ sample: Sample, coveredBy covered: [Range<Int64>], pieces withPieces: Bool,
        to merged: inout MergedSamples
    ) {
        let (start, end) = (sample.startMilliseconds, sample.endMilliseconds)
        // The first covered range that ends after the sample starts.
        var index = covered.partitioningIndex { $0.upperBound > start }
        if start == end {
            if index == covered.count || covered[index].lowerBound > start {
                merged.append(sample, .whole)
            }
            return
        }
        // Most samples meet no higher source at all.
        if index == covered.count || covered[index].lowerBound >= end {
            merged.append(sample, .whole)
            return
        }
        var pieces: [Range<Int64>] = []
        var from = start
        while index < covered.count && covered[index].lowerBound < end {
            if covered[index].lowerBound > from { pieces.append(from..<covered[index].lowerBound) }
            from = max(from, covered[index].upperBound)
            index += 1
        }
        if from < end { pieces.append(from..<end) }
        if pieces == [start..<end] {
            merged.append(sample, .whole)
            return
        }
        guard !pieces.isEmpty else { return }
        let duration = Double(end - start)
        let uncovered = pieces.reduce(Int64(0)) { $0 + ($1.upperBound - $1.lowerBound) }
        let head = Proration.share(of: sample.value, overlap: uncovered, duration: duration)
        merged.append(
            Sample(startMilliseconds: start, endMilliseconds: start, value: head),
            uncovered * 2 > end - start ? .countedHead : .uncountedHead)
        for piece in pieces where withPieces {
            merged.append(
                Sample(
                    startMilliseconds: piece.lowerBound, endMilliseconds: piece.upperBound,
                    value: Proration.share(
                        of: sample.value, overlap: piece.upperBound - piece.lowerBound,
                        duration: duration)),
                .piece)
        }
    }

    /// `covered` (sorted, disjoint) with the spans of `stream`'s samples that have a duration.
    private static func union(_ covered: [Range<Int64>], _ stream: [Sample]) -> [Range<Int64>] {
        var spans = covered
        for sample in stream where sample.endMilliseconds > sample.startMilliseconds {
            spans.append(sample.startMilliseconds..<sample.endMilliseconds)
        }
        spans.sort { $0.lowerBound < $1.lowerBound }
        var result: [Range<Int64>] = []
        for span in spans {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }
}

extension MergedSamples {
    /// Appends `sample` with `role`.
    mutating func append(_ sample: Sample, _ role: SampleRole) {
        samples.append(sample)
        roles.append(role)
    }

    /// Sorts the samples by start then end (a head, an instant, before the pieces that share
    /// its start), keeping the order of equal ones.
    mutating func sort() {
        let ordered = zip(samples, samples.dropFirst()).allSatisfy {
            ($0.startMilliseconds, $0.endMilliseconds) <= ($1.startMilliseconds, $1.endMilliseconds)
        }
        if ordered { return }
        var entries = zip(samples, roles).enumerated().map { ($1.0, $1.1, $0) }
        entries.sort {
            ($0.0.startMilliseconds, $0.0.endMilliseconds, $0.2)
                < ($1.0.startMilliseconds, $1.0.endMilliseconds, $1.2)
        }
        samples = entries.map(\.0)
        roles = entries.map(\.1)
    }
}
