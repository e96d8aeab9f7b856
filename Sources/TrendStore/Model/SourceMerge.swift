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
    /// `streams` must hold every sample that overlaps a kept one, from every source. The
    /// work is linear in the samples read (plus a sort only where a stream, or a source's
    /// view, is out of order: a head before a sample of the same start, say): each
    /// source's view is built with one pass over the spans its higher sources cover, and
    /// the views are interleaved, not sorted.
    static func merge(
        _ streams: [[Sample]], kind: SeriesKind, keepingStartsIn starts: ClosedRange<Int64>,
        pieces: Bool = true
    ) -> MergedSamples {
        var views: [MergedSamples] = []
        views.reserveCapacity(streams.count)
        // One source with samples: nothing to merge.
        if kind == .discrete || streams.lazy.filter({ !$0.isEmpty }).count <= 1 {
            for stream in streams {
                var view = MergedSamples()
                for sample in stream where starts.contains(sample.startMilliseconds) {
                    view.append(sample, .whole)
                }
                views.append(view)
            }
            return interleaved(views)
        }
        var covered: [Range<Int64>] = []
        for (rank, stream) in streams.enumerated() {
            var view = MergedSamples()
            var cursor = 0
            for sample in stream where starts.contains(sample.startMilliseconds) {
                add(sample, coveredBy: covered, from: &cursor, pieces: pieces, to: &view)
            }
            views.append(view)
            // The lowest source covers nothing below it.
            if rank < streams.count - 1 { covered = union(covered, stream) }
        }
        return interleaved(views)
    }

    /// Adds what `sample` counts for outside `covered` (sorted, disjoint) to `merged`;
    /// `cursor` is where the search for the first covered span ending after the sample's
    /// start begins (samples come in order of start, so it only moves on).
    private static func add(
        _ sample: Sample, coveredBy covered: [Range<Int64>], from cursor: inout Int,
        pieces withPieces: Bool, to merged: inout MergedSamples
    ) {
        let (start, end) = (sample.startMilliseconds, sample.endMilliseconds)
        if cursor > 0 && covered[cursor - 1].upperBound > start {
            cursor = covered.partitioningIndex { $0.upperBound > start }
        }
        while cursor < covered.count && covered[cursor].upperBound <= start { cursor += 1 }
        let first = cursor
        if start == end {
            if first == covered.count || covered[first].lowerBound > start {
                merged.append(sample, .whole)
            }
            return
        }
        // Most samples meet no higher source at all.
        if first == covered.count || covered[first].lowerBound >= end {
            merged.append(sample, .whole)
            return
        }
        // The uncovered time; the pieces themselves are formed again below only when wanted.
        var uncovered: Int64 = 0
        forEachPiece(of: start..<end, outside: covered, from: first) {
            uncovered += $0.upperBound - $0.lowerBound
        }
        // Uncovered pieces never touch: the whole sample is uncovered only as one piece.
        if uncovered == end - start {
            merged.append(sample, .whole)
            return
        }
        guard uncovered > 0 else { return }
        let duration = Double(end - start)
        let head = Proration.share(of: sample.value, overlap: uncovered, duration: duration)
        merged.append(
            Sample(startMilliseconds: start, endMilliseconds: start, value: head),
            uncovered * 2 > end - start ? .countedHead : .uncountedHead)
        guard withPieces else { return }
        forEachPiece(of: start..<end, outside: covered, from: first) { piece in
            merged.append(
                Sample(
                    startMilliseconds: piece.lowerBound, endMilliseconds: piece.upperBound,
                    value: Proration.share(
                        of: sample.value, overlap: piece.upperBound - piece.lowerBound,
                        duration: duration)),
                .piece)
        }
    }

    /// Calls `body` with each non-empty part of `span` outside `covered` (sorted, disjoint),
    /// in order, starting the search at `covered[first]`, the first span ending after
    /// `span` starts.
    @inline(__always)
    private static func forEachPiece(
        of span: Range<Int64>, outside covered: [Range<Int64>], from first: Int,
        _ body: (Range<Int64>) -> Void
    ) {
        var from = span.lowerBound
        var index = first
        while index < covered.count && covered[index].lowerBound < span.upperBound {
            if covered[index].lowerBound > from { body(from..<covered[index].lowerBound) }
            from = max(from, covered[index].upperBound)
            index += 1
        }
        if from < span.upperBound { body(from..<span.upperBound) }
    }

    /// `covered` (sorted, disjoint) with the spans of `stream`'s samples that have a
    /// duration: one merging pass when the stream is in order of start, as streams are.
    private static func union(_ covered: [Range<Int64>], _ stream: [Sample]) -> [Range<Int64>] {
        var result: [Range<Int64>] = []
        result.reserveCapacity(covered.count + stream.count)
        var next = 0
        var previousStart = Int64.min
        for sample in stream where sample.endMilliseconds > sample.startMilliseconds {
            let span = sample.startMilliseconds..<sample.endMilliseconds
            guard span.lowerBound >= previousStart else { return sortedUnion(covered, stream) }
            previousStart = span.lowerBound
            while next < covered.count && covered[next].lowerBound <= span.lowerBound {
                extend(&result, with: covered[next])
                next += 1
            }
            extend(&result, with: span)
        }
        while next < covered.count {
            extend(&result, with: covered[next])
            next += 1
        }
        return result
    }

    /// Adds `span`, which starts at or after every span of `spans` (sorted, disjoint), to them.
    @inline(__always)
    private static func extend(_ spans: inout [Range<Int64>], with span: Range<Int64>) {
        if let last = spans.last, span.lowerBound <= last.upperBound {
            spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
        } else {
            spans.append(span)
        }
    }

    /// ``union(_:_:)`` for a stream out of order: every span sorted, then joined.
    private static func sortedUnion(_ covered: [Range<Int64>], _ stream: [Sample])
        -> [Range<Int64>]
    {
        var spans = covered
        for sample in stream where sample.endMilliseconds > sample.startMilliseconds {
            spans.append(sample.startMilliseconds..<sample.endMilliseconds)
        }
        spans.sort { $0.lowerBound < $1.lowerBound }
        var result: [Range<Int64>] = []
        for span in spans { extend(&result, with: span) }
        return result
    }

    /// The views of the sources as one, sorted by start then end, a higher source's sample
    /// before a lower one's of the same start and end, and each view's own order kept among
    /// equal ones: the order a stable sort of the views, one after another, gives.
    private static func interleaved(_ views: [MergedSamples]) -> MergedSamples {
        let filled = views.filter { !$0.samples.isEmpty }
        if filled.count <= 1 {
            var only = filled.first ?? MergedSamples()
            only.sort()
            return only
        }
        guard filled.allSatisfy(\.isOrdered) else {
            var all = MergedSamples()
            for view in filled {
                all.samples += view.samples
                all.roles += view.roles
            }
            all.sort()
            return all
        }
        return filled.dropFirst().reduce(filled[0], interleaved)
    }

    /// `higher` and `lower` (each sorted) as one sorted view, `higher`'s sample first of two
    /// with the same start and end.
    private static func interleaved(_ higher: MergedSamples, _ lower: MergedSamples)
        -> MergedSamples
    {
        var merged = MergedSamples()
        merged.samples.reserveCapacity(higher.samples.count + lower.samples.count)
        merged.roles.reserveCapacity(higher.samples.count + lower.samples.count)
        var (left, right) = (0, 0)
        while left < higher.samples.count && right < lower.samples.count {
            let (a, b) = (higher.samples[left], lower.samples[right])
            if (b.startMilliseconds, b.endMilliseconds) < (a.startMilliseconds, a.endMilliseconds) {
                merged.append(b, lower.roles[right])
                right += 1
            } else {
                merged.append(a, higher.roles[left])
                left += 1
            }
        }
        merged.samples += higher.samples[left...]
        merged.roles += higher.roles[left...]
        merged.samples += lower.samples[right...]
        merged.roles += lower.roles[right...]
        return merged
    }
}

extension MergedSamples {
    /// Appends `sample` with `role`.
    mutating func append(_ sample: Sample, _ role: SampleRole) {
        samples.append(sample)
        roles.append(role)
    }

    /// Whether the samples are sorted by start then end.
    var isOrdered: Bool {
        zip(samples, samples.dropFirst()).allSatisfy {
            ($0.startMilliseconds, $0.endMilliseconds) <= ($1.startMilliseconds, $1.endMilliseconds)
        }
    }

    /// Sorts the samples by start then end (a head, an instant, before the pieces that share
    /// its start), keeping the order of equal ones.
    mutating func sort() {
        if isOrdered { return }
        var entries = zip(samples, roles).enumerated().map { ($1.0, $1.1, $0) }
        entries.sort {
            ($0.0.startMilliseconds, $0.0.endMilliseconds, $0.2)
                < ($1.0.startMilliseconds, $1.0.endMilliseconds, $1.2)
        }
        samples = entries.map(\.0)
        roles = entries.map(\.1)
    }
}
