import LMDB

/// The rows of a series of several sources: a change to one source's samples can alter
/// what the samples of other sources count (a higher source covers a lower one), so every
/// day a changed sample or a sample overlapping one may touch is rebuilt from the merged
/// view of all the series' sources (``SourceMerge``).
extension SeriesWriter {
    /// Rebuilds the merged rows of `series` for the days the changes may alter.
    ///
    /// - Returns: The instants whose figures the changes may have altered (whole UTC days);
    ///   `nil` when nothing changed.
    mutating func finishMerged(_ series: SeriesRecord, in txn: borrowing WriteTransaction)
        throws -> Range<Int64>?
    {
        // Days asked for whole (``rebuildRows(ofDays:)``), and those a changed sample or a
        // sample overlapping one may touch: it lies within the series' longest duration of
        // the change.
        var days = daysToRebuild
        let reach = series.maximumDuration
        for span in mergedChanges {
            let first = (span.lowerBound - reach).floorDivided(by: TimeGrid.day)
            let last = (span.upperBound - 1 + reach).floorDivided(by: TimeGrid.day)
            for day in first...last { days.insert(day) }
        }
        daysToRebuild.removeAll()
        mergedChanges.removeAll()
        guard !days.isEmpty else { return nil }
        // Days within twice the longest duration of each other are read in one piece.
        let reachDays = reach / TimeGrid.day + 1
        let sorted = days.sorted()
        let streams = try storage.streams(of: series, in: txn)
        let kind = series.kind
        var first = 0
        while first < sorted.count {
            // Days close together are merged in one read.
            var last = first
            while last + 1 < sorted.count && last - first + 1 < Self.daysPerRebuild
                && sorted[last + 1] - sorted[last] <= 2 * reachDays
            {
                last += 1
            }
            let chunk = sorted[first...last]
            let merged = try storage.merged(
                streams, of: series, startingFrom: chunk[chunk.startIndex] * TimeGrid.day - reach,
                through: (chunk[last] + 1) * TimeGrid.day - 1, in: txn, zlib: zlib)
            let perDay = chunk.map { day -> (day: Int64, samples: MergedSamples) in
                let dayStart = day * TimeGrid.day
                let from = merged.samples.partitioningIndex {
                    $0.startMilliseconds >= dayStart - reach
                }
                let to = merged.samples.partitioningIndex {
                    $0.startMilliseconds >= dayStart + TimeGrid.day
                }
                return (
                    day,
                    MergedSamples(
                        samples: Array(merged.samples[from..<to]),
                        roles: Array(merged.roles[from..<to]))
                )
            }
            try putRows(rebuilding: perDay) { DayRollup.build(day: $0, kind: kind, merged: $1) }
            first = last + 1
        }
        guard let low = sorted.first, let high = sorted.last else { return nil }
        return (low * TimeGrid.day)..<((high + 1) * TimeGrid.day)
    }
}
