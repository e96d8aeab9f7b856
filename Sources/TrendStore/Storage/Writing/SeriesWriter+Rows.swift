import LMDB

/// The rollup rows of the days a ``SeriesWriter`` changes: updated in place for samples that
/// each fall in one quarter-hour, else rebuilt from the day's samples (on several threads
/// when a write changes many days).
extension SeriesWriter {
    /// Adds samples each contained in one quarter-hour of `day` to its stored row, the
    /// same bits a rebuild would give; `false` when the row must be rebuilt instead (the
    /// store did not keep the row of a day with samples, the row is in the `Double` form,
    /// a value does not scale at its exponent, a sum would overflow, or it cannot be read).
    mutating func updateInPlace(
        day: Int64, inserting inserts: [Sample], in txn: borrowing WriteTransaction
    ) throws -> Bool {
        let key = DayRowKey(series: record.id, day: day)
        let stored: (version: UInt8?, rollup: DayRollup?)? = try rows.withRow(
            forKey: key, in: txn
        ) { ($0.first, try? RollupRowCodec.decode($0, day: day)) }
        var rollup: DayRollup
        switch stored {
        case .none:
            // A day of the hour grid whose row was not kept is rebuilt from its samples.
            if try rows.mayHoldSamples(withoutRow: key, kind: record.kind, in: txn) {
                return false
            }
            // No row: nothing else touches the day, so these samples are all of it.
            rollup = DayRollup.build(day: day, kind: record.kind, from: inserts)
        case .some((_, .none)):
            return false
        case .some((let version, .some(let row))):
            guard let exponent = row.exponent else { return false }
            // A full row does not list its crossings, which a compact row needs.
            if CompactRowCodec.applies(to: row), version != CompactRowCodec.version {
                return false
            }
            rollup = row
            let dayStart = day * TimeGrid.day
            for sample in inserts {
                guard let integer = DecimalScale.scaled(sample.value, exponent: exponent) else {
                    return false
                }
                let slot = Int((sample.startMilliseconds - dayStart) / TimeGrid.quarterHour)
                let (sum, overflow) = rollup.startIntegers[slot].addingReportingOverflow(integer)
                guard !overflow else { return false }
                rollup.extremes?.add(sample, slot: slot, isFirst: rollup.startCounts[slot] == 0)
                rollup.startIntegers[slot] = sum
                rollup.startCounts[slot] += 1
                rollup.touched[slot] = true
            }
        }
        try putRow(rollup, in: txn)
        return true
    }

    /// Records the row of `rollup`, or its removal when no sample touches the day.
    func putRow(_ rollup: DayRollup, in txn: borrowing WriteTransaction) throws {
        record(
            DayRowChange(rollup: rollup, series: rowSeries, phase: rows.phase, keepsRow: true))
    }

    /// The series whose rows this writer changes: the merged series, else its own.
    private var rowSeries: UInt32 { mergedSeries?.id ?? record.id }

    /// Hands `change` to ``rows``.
    private func record(_ change: DayRowChange) {
        rows.set(
            change, forKey: DayRowKey(series: rowSeries, day: change.day),
            kind: record.kind)
    }

    /// The rollup of a day of one source's samples.
    static func build(kind: SeriesKind) -> @Sendable (Int64, [Sample]) -> DayRollup {
        { DayRollup.build(day: $0, kind: kind, from: $1) }
    }

    /// The most days whose samples ``finish(in:)`` gathers before building their rows.
    static let daysPerRebuild = 256
    /// The fewest days worth building on another thread.
    private static let daysPerThread = 8

    /// Builds the rows of `days` (in ascending order) from the samples that touch each (by
    /// `build`), on
    /// several threads when there are many days, and records them with their summaries.
    ///
    /// A store of the hour grid keeps only its newest days' rows: the rows of days the last
    /// of `days` leaves behind are not encoded; should it hold no samples (they were
    /// deleted), the rows of the newest days that do are encoded after all.
    func putRows<Input: Sendable>(
        rebuilding days: [(day: Int64, samples: Input)],
        build: @escaping @Sendable (Int64, Input) -> DayRollup
    ) throws {
        guard let newestDay = days.last?.day else { return }
        let (series, phase) = (rowSeries, rows.phase)
        @Sendable func change(_ day: (day: Int64, samples: Input), oldestKept: Int64)
            -> DayRowChange
        {
            DayRowChange(
                rollup: build(day.day, day.samples), series: series, phase: phase,
                keepsRow: day.day >= oldestKept)
        }
        let oldestKept = rows.oldestKeptDay(newestDay: newestDay)
        var built = try ConcurrentWork.map(days, minimumShare: Self.daysPerThread) {
            change($0, oldestKept: oldestKept)
        }
        if let newestHeld = built.last(where: \.holdsSamples)?.day, newestHeld < newestDay {
            let oldestKept = rows.oldestKeptDay(newestDay: newestHeld)
            for index in built.indices
            where built[index].holdsSamples && built[index].row == nil
                && built[index].day >= oldestKept
            {
                built[index] = change(days[index], oldestKept: oldestKept)
            }
        }
        for change in built { record(change) }
    }

    /// Notes an inserted sample: its day's row can take it in place when it lies in one
    /// quarter-hour, or when the series is discrete (a sample counts only where it starts).
    mutating func noteInsert(_ sample: Sample) {
        if writesMergedSource { return touch(sample) }
        let start = sample.startMilliseconds
        let slotEnd = (start.floorDivided(by: TimeGrid.quarterHour) + 1) * TimeGrid.quarterHour
        if record.kind == .discrete || sample.endMilliseconds == start
            || sample.endMilliseconds <= slotEnd
        {
            let day = start.floorDivided(by: TimeGrid.day)
            // A day rebuilt anyway needs no list of its inserts.
            if day != lastDayToRebuild { containedInserts[day, default: []].append(sample) }
        } else {
            touch(sample)
        }
    }

    /// Marks every day `sample` touches for a rebuild.
    mutating func touch(_ sample: Sample) {
        if writesMergedSource {
            let end = max(sample.endMilliseconds, sample.startMilliseconds + 1)
            mergedChanges.append(sample.startMilliseconds..<end)
            return
        }
        let first = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
        let lastInstant =
            sample.endMilliseconds > sample.startMilliseconds
            ? sample.endMilliseconds - 1 : sample.startMilliseconds
        let last = lastInstant.floorDivided(by: TimeGrid.day)
        for day in first...last where day != lastDayToRebuild { daysToRebuild.insert(day) }
        lastDayToRebuild = last
    }
}
