import LMDB

/// Heatmap figures: the count and start sum of each local day.
extension SeriesAggregator {
    /// The count and start sum of each day, given the runs of instants it is made of; for heatmaps.
    ///
    /// Needs no hour spans: a run whose ends fall on quarter-hours is a run of rollup
    /// slots; any other run (a historical offset), and every run of a store of the hour
    /// grid, is counted from raw samples.
    func dayTotals<T: ReadableTransaction & ~Copyable>(
        of days: [DayRuns], txn: borrowing T
    ) throws -> [DayCount] {
        var ranges = InstantRanges()
        if plan.readsSlots {
            for runs in days {
                for run in runs { ranges.append(run) }
            }
        }
        let rows = try RollupRows(
            storage: storage, record: record, days: ranges.daySlots, includesStarts: true,
            txn: txn)
        var result: [DayCount] = []
        result.reserveCapacity(days.count)
        for runs in days {
            var figures = LocalDayFigures(hourly: [])
            for run in runs { try addStarts(in: run, rows: rows, into: &figures, txn: txn) }
            result.append(DayCount(count: figures.count, total: figures.startSum))
        }
        return result
    }

    /// Adds the count and start sum of the samples starting in `run`: from rollup slots when
    /// the store keeps them and its ends fall on quarter-hours, else from raw samples.
    @inline(__always)
    private func addStarts<T: ReadableTransaction & ~Copyable>(
        in run: Range<Int64>, rows: RollupRows, into figures: inout LocalDayFigures,
        txn: borrowing T
    ) throws {
        if plan.readsStartsFromSlots(run) {
            addSlots(rows, from: run.lowerBound, to: run.upperBound, hour: 0, into: &figures)
        } else {
            for sample in try rawSamples(
                startingFrom: run.lowerBound, through: run.upperBound - 1, txn: txn)
            {
                figures.count += 1
                figures.startSum += sample.value
            }
        }
    }
}
