/// The merge of a block's stored samples with incoming ones of the same block.
struct SampleMerge {
    /// The window's samples after the merge, sorted.
    private(set) var merged: [Sample] = []
    /// Incoming samples whose identity was new.
    private(set) var inserted: [Sample] = []
    /// Incoming samples that changed a stored value.
    private(set) var replaced: [Sample] = []
    private(set) var summary = WriteSummary()

    /// Merges sorted, identity-unique `incoming` into sorted, identity-unique `existing`.
    init(existing: [Sample], incoming: ArraySlice<Sample>) {
        merged.reserveCapacity(existing.count + incoming.count)
        var old = existing.startIndex
        var new = incoming.startIndex
        while old < existing.endIndex || new < incoming.endIndex {
            if new == incoming.endIndex {
                merged.append(existing[old]); old += 1
            } else if old == existing.endIndex || Self.precedes(incoming[new], existing[old]) {
                merged.append(incoming[new]); inserted.append(incoming[new]); summary.inserted += 1;
                new += 1
            } else if Self.precedes(existing[old], incoming[new]) {
                merged.append(existing[old]); old += 1
            } else {
                merged.append(incoming[new])
                if incoming[new].value.bitPattern == existing[old].value.bitPattern {
                    summary.unchanged += 1
                } else {
                    replaced.append(incoming[new]); summary.replaced += 1
                }
                old += 1; new += 1
            }
        }
    }

    @inline(__always)
    private static func precedes(_ lhs: Sample, _ rhs: Sample) -> Bool {
        lhs.startMilliseconds != rhs.startMilliseconds
            ? lhs.startMilliseconds < rhs.startMilliseconds
            : lhs.endMilliseconds < rhs.endMilliseconds
    }
}
