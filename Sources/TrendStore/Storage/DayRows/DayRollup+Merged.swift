/// The rollup of a day of a series with several sources: built from the merged view of its
/// sources (``SourceMerge``), so its slots hold the merged figures.
extension DayRollup {
    /// Builds the rollup of `day` from `merged` (sorted by start then end; samples that do
    /// not touch the day are skipped).
    ///
    /// Whole samples count as in ``build(day:kind:from:)``; a head adds its value to its
    /// slot's start sum (and one to its start count when it counts as a sample); a piece is
    /// prorated. With no head or piece this is ``build(day:kind:from:)``, bit for bit;
    /// otherwise the row takes the `Double` form (a head's value is a share, not a decimal
    /// of the samples' places).
    static func build(day: Int64, kind: SeriesKind, merged: MergedSamples) -> DayRollup {
        guard merged.roles.contains(where: { $0 != .whole }) else {
            return build(day: day, kind: kind, from: merged.samples)
        }
        var rollup = DayRollup(day: day, kind: kind)
        let dayStart = day * TimeGrid.day
        let dayEnd = dayStart + TimeGrid.day
        for (sample, role) in zip(merged.samples, merged.roles) {
            let start = sample.startMilliseconds
            let startsInDay = start >= dayStart && start < dayEnd
            let slot = startsInDay ? Int((start - dayStart) / TimeGrid.quarterHour) : -1
            switch role {
            case .countedHead, .uncountedHead:
                guard startsInDay else { continue }
                if role == .countedHead { rollup.startCounts[slot] += 1 }
                rollup.startSums[slot] += sample.value
                rollup.touched[slot] = true
            case .whole, .piece:
                if startsInDay && role == .whole {
                    rollup.startCounts[slot] += 1
                    rollup.startSums[slot] += sample.value
                }
                if startsInDay && isContained(sample, inSlot: slot, dayStart: dayStart) {
                    rollup.containedSums[slot] += sample.value
                    rollup.touched[slot] = true
                } else {
                    rollup.addShares(sample, dayStart: dayStart, dayEnd: dayEnd)
                }
            }
        }
        return rollup
    }
}
