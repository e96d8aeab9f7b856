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
    /// highest priority first), keeping the samples that start in `starts`.
    ///
    /// `streams` must hold every sample that overlaps a kept one, from every source.
    static func merge(
        _ streams: [[Sample]], kind: SeriesKind, keepingStartsIn starts: ClosedRange<Int64>
    ) -> MergedSamples {
        var merged = MergedSamples()
        var covered: [Range<Int64>] = []
        for stream in streams {
            for sample in stream where starts.contains(sample.startMilliseconds) {
                if kind == .discrete {
                    merged.append(sample, .whole)
                } else {
                    add(sample, coveredBy: covered, to: &merged)
                }
            }
            if kind == .cumulative && streams.count > 1 {
                covered = union(covered, stream)
            }
        }
        merged.sort()
        return merged
    }

    /// Adds what `sample` counts for outside `covered` (sorted, disjoint) to `merged`.
    private static func add(
        _ sample: Sample, coveredBy covered: [Range<Int64>], to merged: inout MergedSamples
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
        for piece in pieces {
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

    /// Sorts the samples by start then end, heads before the pieces that share their start.
    mutating func sort() {
        let order = samples.indices.sorted {
            let (left, right) = (samples[$0], samples[$1])
            if left.startMilliseconds != right.startMilliseconds {
                return left.startMilliseconds < right.startMilliseconds
            }
            if left.endMilliseconds != right.endMilliseconds {
                return left.endMilliseconds < right.endMilliseconds
            }
            return $0 < $1
        }
        samples = order.map { samples[$0] }
        roles = order.map { roles[$0] }
    }
}
