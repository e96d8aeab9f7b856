/// The union of many time intervals, built from unsorted input in bounded memory.
///
/// Intervals are gathered in a buffer that is sorted and merged into the union
/// whenever it fills; contiguous minute samples collapse into a few intervals a day.
struct CoverageIntervals: Sendable, Equatable {
    private var merged: [(start: Int64, end: Int64)] = []
    private var pending: [(start: Int64, end: Int64)] = []
    private let bufferLimit: Int

    init(bufferLimit: Int = 1 << 18) { self.bufferLimit = bufferLimit }

    /// Adds `[start, end]` (an instant when they are equal).
    mutating func add(start: Int64, end: Int64) {
        pending.append((start, end))
        if pending.count >= bufferLimit { compact() }
    }

    /// Whether the two hold the same intervals in the same state (compacted or not).
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.merged.elementsEqual(rhs.merged, by: ==)
            && lhs.pending.elementsEqual(rhs.pending, by: ==)
    }

    /// Adds every interval of `other`.
    mutating func formUnion(_ other: CoverageIntervals) {
        pending += other.merged
        pending += other.pending
        if pending.count >= bufferLimit { compact() }
    }

    /// Merges what is buffered into the union; call before querying.
    mutating func compact() {
        guard !pending.isEmpty else { return }
        let all = (merged + pending).sorted { $0.start < $1.start }
        pending.removeAll(keepingCapacity: true)
        var result: [(start: Int64, end: Int64)] = []
        result.reserveCapacity(all.count / 4)
        for interval in all {
            if let last = result.last, interval.start <= last.end {
                result[result.count - 1].end = max(last.end, interval.end)
            } else {
                result.append(interval)
            }
        }
        merged = result
    }

    /// Whether any interval shares time with `[start, end)`, or contains `start` when the two are equal.
    func overlaps(start: Int64, end: Int64) -> Bool {
        precondition(pending.isEmpty, "compact() before querying")
        // The last interval starting at or before the query's end (or before it, for a duration).
        var low = 0
        var high = merged.count
        while low < high {
            let middle = (low + high) / 2
            if end > start ? merged[middle].start < end : merged[middle].start <= start {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low > 0 else { return false }
        let candidate = merged[low - 1]
        return end > start
            ? candidate.end > start
                || (candidate.end == candidate.start && candidate.start >= start)
            : candidate.end >= start
    }
}
