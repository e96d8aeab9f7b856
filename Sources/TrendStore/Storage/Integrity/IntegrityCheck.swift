import Foundation
import LMDB

/// Verifies a store: decodes every block, checks every checksum and invariant, and
/// recomputes every rollup row and hour summary from the samples, comparing their bytes.
///
/// Series are streamed block by block, keeping only samples that can still reach
/// days not yet checked, so memory stays bounded by the longest sample.
struct IntegrityCheck {
    let storage: SampleStorage

    func run<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> VerificationReport
    {
        var report = VerificationReport()
        let records = try storage.allSeriesRecords(in: txn)
        let zlib = ZlibCodec()
        // A row that does not open (reported by the caller) leaves the rows to be read
        // series by series, each series' check ending at its own damage.
        var rowsBySeries = try? storage.rowsBySeries(in: txn)
        // The change log's own check reports a table that does not read.
        let wholeDays = (try? storage.sync?.wholeDayRecords(zlib: zlib, in: txn)) ?? [:]
        for record in records {
            report.seriesChecked += 1
            do {
                let rows =
                    try rowsBySeries?.removeValue(forKey: record.id)
                    ?? storage.rows(of: record.id, in: txn)
                try check(
                    record, rows: rows, wholeDays: wholeDays, txn: txn, zlib: zlib,
                    report: &report)
            } catch is SealedValueDamage {
                continue
            } catch let error as LMDBError {
                report.problems.append(
                    .init(
                        kind: .unreadable, series: record.name, at: Date(milliseconds: 0),
                        detail: "\(error)"))
            }
        }
        var known = Set(records.map(\.id))
        for record in records where record.hasSources {
            for stream in (try? storage.streams(of: record, in: txn)) ?? [] {
                known.insert(stream.record.id)
            }
        }
        // Keys that belong to no registered series, and walks that miss entries.
        func owner(in name: String) -> (UInt32?) -> Void {
            { owner in
                if owner.map({ !known.contains($0) }) ?? true {
                    report.problems.append(
                        .init(
                            kind: .unknownSeries, series: "#\(owner ?? 0)",
                            at: Date(milliseconds: 0),
                            detail: "key in \(name) belongs to no registered series"))
                }
            }
        }
        var reaches = [
            try storage.blocks.forEachOwner(in: txn, owner(in: BlockTable.name)),
            try storage.days.forEachOwner(in: txn, owner(in: DayRowTable.name)),
            try storage.hours.forEachOwner(in: txn, owner(in: HourSummaryTable.name)),
        ]
        if let sources = storage.sources {
            reaches.append(try sources.forEachOwner(in: txn, owner(in: SourceTable.name)))
        }
        for reach in reaches where !reach.isComplete {
            report.problems.append(
                .init(
                    kind: .unreadable, series: "", at: Date(milliseconds: 0),
                    detail:
                        "database \(reach.name) holds \(reach.recorded) entries but a walk reaches \(reach.reached): a damaged page hides or repeats some"
                ))
        }
        try checkChangeLog(txn: txn, zlib: zlib, report: &report)
        return report
    }

    /// Reads every record of the change log; each damaged one found is a problem.
    private func checkChangeLog<T: ReadableTransaction & ~Copyable>(
        txn: borrowing T, zlib: ZlibCodec, report: inout VerificationReport
    ) throws {
        guard let sync = storage.sync else { return }
        var damaged: [StoreError] = []
        do {
            _ = try sync.check(zlib: zlib, in: txn, damaged: &damaged)
        } catch is SealedValueDamage {
            // An encrypted store's values that do not open are reported on their own.
        } catch let error as LMDBError {
            report.problems.append(
                .init(
                    kind: .unreadable, series: "", at: Date(milliseconds: 0),
                    detail: "database \(SyncTable.name): \(error)"))
        }
        for error in damaged {
            report.problems.append(
                .init(
                    kind: .damagedChangeLog, series: "", at: Date(milliseconds: 0),
                    detail: "\(error)"))
        }
    }

    /// Checks `record`, whose stored rollup rows are `rows` (by UTC day).
    private func check<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, rows: [Int64: [UInt8]],
        wholeDays: [UInt32: [SyncTable.WholeDayRecord]], txn: borrowing T, zlib: ZlibCodec,
        report: inout VerificationReport
    ) throws {
        var expectedDays = Set<Int64>()
        /// The start ranges of blocks that could not be decoded.
        var damagedRanges: [Range<Int64>] = []
        var pending: [Sample] = []
        var checkedThrough = Int64.min  // days before this are done

        func problem(_ kind: VerificationReport.Problem.Kind, _ at: Int64, _ detail: String) {
            report.problems.append(
                .init(kind: kind, series: record.name, at: Date(milliseconds: at), detail: detail))
        }

        var rows = rows
        if record.hasSources {
            try checkMerged(
                record, rows: &rows, wholeDays: wholeDays, txn: txn, zlib: zlib, report: &report)
            return
        }

        /// Whether a sample of a damaged block could touch `day`, so its rollup cannot be checked.
        func dependsOnDamage(_ day: Int64) -> Bool {
            // A damaged key's day may be any number; no sample reaches one beyond Int64's.
            guard let dayStart = TimeGrid.checkedStart(ofDay: day) else { return false }
            let reach = dayStart - record.maximumDuration
            return damagedRanges.contains {
                $0.lowerBound < dayStart + TimeGrid.day && $0.upperBound > reach
            }
        }

        /// Checks every day before `boundaryDay` touched by the pending samples.
        func settle(before boundaryDay: Int64) throws {
            var days = Set<Int64>()
            for sample in pending {
                let first = max(
                    sample.startMilliseconds.floorDivided(by: TimeGrid.day), checkedThrough)
                let lastInstant =
                    sample.endMilliseconds > sample.startMilliseconds
                    ? sample.endMilliseconds - 1 : sample.startMilliseconds
                let last = min(lastInstant.floorDivided(by: TimeGrid.day), boundaryDay - 1)
                if first <= last { for day in first...last { days.insert(day) } }
            }
            for day in days.sorted() {
                expectedDays.insert(day)
                // Damage is already reported: a block the day's samples may come from.
                if dependsOnDamage(day) { continue }
                report.rollupsChecked += 1
                compare(
                    DayRollup.build(day: day, kind: record.kind, from: pending), with: &rows,
                    problem: problem)
            }
            checkedThrough = max(checkedThrough, boundaryDay)
            let boundary = boundaryDay * TimeGrid.day
            pending.removeAll { $0.endMilliseconds <= boundary && $0.startMilliseconds < boundary }
        }

        let starts = try storage.blockStarts(
            of: record, startingFrom: .min, through: .max, in: txn)
        var wholeDayTally = WholeDayTally(records: wholeDays[record.id] ?? [])
        var previousLast: Sample?
        for (position, firstStart) in starts.enumerated() {
            try settle(before: firstStart.floorDivided(by: TimeGrid.day))
            var samples: [Sample] = []
            report.blocksChecked += 1
            do {
                _ = try storage.withBlock(firstStart, of: record, in: txn) { bytes in
                    try storage.decodeBlock(
                        bytes, firstStart: firstStart, of: record, zlib: zlib,
                        appendingTo: &samples)
                }
            } catch let error as StoreError {
                let upperBound = position + 1 < starts.count ? starts[position + 1] : .max
                damagedRanges.append(firstStart..<max(upperBound, firstStart + 1))
                problem(.damagedBlock, firstStart, "\(error)")
                continue
            }
            report.samplesChecked += samples.count
            if let issue = invariantViolation(
                samples, firstStart: firstStart, after: previousLast, record: record)
            {
                problem(.inconsistentBlock, firstStart, issue)
            }
            previousLast = samples.last
            wholeDayTally.add(samples)
            pending.append(contentsOf: samples)
        }
        // With a damaged block the day's samples cannot be counted: its damage is reported.
        if damagedRanges.isEmpty {
            report.problems += wholeDayTally.problems(
                series: record.name, source: SourceName.defaultSource)
        }
        try settle(before: .max / TimeGrid.day)
        try finishCheck(
            of: record, rows: rows, expectedDays: expectedDays, unchecked: dependsOnDamage,
            txn: txn, problem: problem)
    }

    /// Compares the stored row of `rollup`'s day in `rows` with `rollup`; in a store of the
    /// hour grid, which keeps the rows of its newest days only, a missing row is put in
    /// `rows`, for the hour summaries to be checked against it.
    func compare(
        _ rollup: DayRollup, with rows: inout [Int64: [UInt8]],
        problem: (VerificationReport.Problem.Kind, Int64, String) -> Void
    ) {
        if let stored = rows[rollup.day] {
            if stored != RollupRowCodec.encode(rollup) {
                problem(
                    .rollupMismatch, rollup.dayStart,
                    "stored rollup differs from the one recomputed from samples")
            }
        } else if !storage.rollupGrid.keepsEveryRow {
            if !rollup.isEmpty { rows[rollup.day] = RollupRowCodec.encode(rollup) }
        } else if !rollup.isEmpty {
            // (A discrete series' day that samples only span, with no start, has no row.)
            problem(.missingRollup, rollup.dayStart, "no rollup row for a day with samples")
        }
    }

    /// Checks the hour summaries of `record` against `rows`, and that every row is of a day
    /// in `expectedDays` (one with samples), but on the days `unchecked` names.
    func finishCheck<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, rows: [Int64: [UInt8]], expectedDays: Set<Int64>,
        unchecked dependsOnDamage: (Int64) -> Bool, txn: borrowing T,
        problem: (VerificationReport.Problem.Kind, Int64, String) -> Void
    ) throws {
        try checkHourSummaries(
            of: record, rows: rows, unchecked: dependsOnDamage, txn: txn, problem: problem)

        for (day, row) in rows.sorted(by: { $0.key < $1.key })
        where !expectedDays.contains(day) && !dependsOnDamage(day) {
            do {
                try row.withUnsafeBytes { try RollupRowCodec.forEachSlot($0) { _, _, _, _ in } }
                problem(
                    .orphanRollup, TimeGrid.clampedStart(ofDay: day),
                    "rollup row for a day without samples")
            } catch {
                problem(.damagedRollup, TimeGrid.clampedStart(ofDay: day), "\(error)")
            }
        }
    }

    /// Compares the stored hour summaries of `record` with those built from its rollup
    /// rows, byte for byte, but on the days
    /// `unchecked` names (damaged samples may touch them; in a store of the hour grid
    /// they have no row to compare with).
    private func checkHourSummaries<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, rows: [Int64: [UInt8]], unchecked: (Int64) -> Bool,
        txn: borrowing T,
        problem: (VerificationReport.Problem.Kind, Int64, String) -> Void
    ) throws {
        var stored: [Int64: [UInt8]] = [:]
        try storage.hours.forEachRow(series: record.id, in: txn) { group, row in
            guard let firstDay = HourSummaryCodec.firstDay(ofGroup: group, kind: record.kind)
            else {
                problem(
                    .damagedRollup, TimeGrid.clampedStart(ofDay: group < 0 ? .min : .max),
                    "hour summary under group \(group), a time no sample can have")
                return
            }
            // Every segment's form, whatever its day: a row the rollups do not explain may
            // still be read by a query of its days.
            do {
                try HourSummaryCodec.forEachSegment(
                    row, series: record.id, group: group, kind: record.kind,
                    phase: storage.hourPhase, isWanted: { _ in false }
                ) { _, _ in }
            } catch {
                problem(.damagedRollup, firstDay * TimeGrid.day, "hour summary: \(error)")
                return
            }
            for (offset, segment) in HourSummaryCodec.segments(of: row, kind: record.kind) {
                stored[firstDay + Int64(offset)] = segment
            }
        }
        for (day, row) in rows.sorted(by: { $0.key < $1.key }) {
            // A row that does not decode is reported as damaged rollup already.
            guard
                let summary = try? row.withUnsafeBytes({
                    try DayHours.build(fromRow: $0, day: day, phase: storage.hourPhase)
                })
            else { continue }
            let expected = HourSummaryCodec.segment(summary, day: day, series: record.id)
            let found = stored.removeValue(forKey: day)
            if found != expected {
                problem(
                    found == nil
                        ? .missingRollup : expected == nil ? .orphanRollup : .rollupMismatch,
                    TimeGrid.clampedStart(ofDay: day),
                    "hour summary differs from the one built from the day's rollup row")
            }
        }
        for day in stored.keys.sorted() where rows[day] == nil && !unchecked(day) {
            problem(
                .orphanRollup, TimeGrid.clampedStart(ofDay: day),
                "hour summary of a day without a rollup row")
        }
    }

    func invariantViolation(
        _ samples: [Sample], firstStart: Int64, after previous: Sample?, record: SeriesRecord
    ) -> String? {
        if samples.first?.startMilliseconds != firstStart {
            return "the block's key is not its first sample's start"
        }
        if samples.count > SampleStorage.maximumBlockSamples,
            let first = samples.first,
            samples[SampleStorage.maximumBlockSamples].startMilliseconds
                != first.startMilliseconds
        {
            return "the block holds more than \(SampleStorage.maximumBlockSamples) samples"
        }
        if let previous, let first = samples.first,
            (previous.startMilliseconds, previous.endMilliseconds) >= (
                first.startMilliseconds, first.endMilliseconds
            )
        {
            return "the block's first sample does not follow the previous block's last"
        }
        for (index, sample) in samples.enumerated() {
            if sample.endMilliseconds < sample.startMilliseconds || !sample.value.isFinite {
                return "sample \(index) has end before start or a non-finite value"
            }
            if sample.durationMilliseconds > record.maximumDuration {
                return "sample \(index) is longer than the series' recorded maximum duration"
            }
            if index > 0 {
                let previous = samples[index - 1]
                if (previous.startMilliseconds, previous.endMilliseconds) >= (
                    sample.startMilliseconds, sample.endMilliseconds
                ) {
                    return "samples \(index - 1) and \(index) are out of order or share an identity"
                }
            }
        }
        return nil
    }
}
