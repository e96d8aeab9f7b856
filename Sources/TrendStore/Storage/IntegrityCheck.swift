import Foundation
import LMDB

/// Verifies a store of either format: decodes every block and chunk, checks every checksum
/// and invariant, and recomputes every rollup from the samples, comparing the bytes of
/// format-2 rows and the figures of format-1 rows (within 1e-9: format 1 summed in another order).
///
/// Series are streamed piece by piece, keeping only samples that can still reach
/// days not yet checked, so memory stays bounded by the longest sample.
struct IntegrityCheck {
    let storage: SampleStorage

    func run<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> VerificationReport
    {
        var report = VerificationReport()
        let records = try storage.allSeriesRecords(in: txn)
        let zlib = ZlibCodec()
        var rowsBySeries = try storage.rowsBySeries(in: txn)
        for record in records {
            report.seriesChecked += 1
            do {
                try check(
                    record, rows: rowsBySeries.removeValue(forKey: record.id) ?? [:], txn: txn,
                    zlib: zlib, report: &report)
            } catch let error as LMDBError {
                report.problems.append(
                    .init(
                        kind: .unreadable, series: record.name, at: Date(milliseconds: 0),
                        detail: "\(error)"))
            }
        }
        let known = Set(records.map(\.id))
        let keyed: [(Database?, (UnsafeRawBufferPointer) -> UInt32?)] = [
            (storage.blocks, { StorageKey.parse($0)?.series }),
            (storage.chunks, { StorageKey.parse($0)?.series }),
            (storage.rollups, { StorageKey.parse($0)?.series }),
            (storage.days, { StorageKey.parseDayRow($0)?.series }),
            (storage.hours, { StorageKey.parse($0)?.series }),
        ]
        for case (let database?, let series) in keyed {
            var reached = 0
            try txn.withCursor(database) { cursor in
                try cursor.forEach { key, _ in
                    reached += 1
                    let owner = series(key)
                    if owner.map({ !known.contains($0) }) ?? true {
                        report.problems.append(
                            .init(
                                kind: .unknownSeries, series: "#\(owner ?? 0)",
                                at: Date(milliseconds: 0),
                                detail: "key in \(database) belongs to no registered series"))
                    }
                    return true
                }
            }
            let recorded = try txn.statistics(of: database).entries
            if reached != recorded {
                report.problems.append(
                    .init(
                        kind: .unreadable, series: "", at: Date(milliseconds: 0),
                        detail:
                            "database \(database) holds \(recorded) entries but a walk reaches \(reached): a damaged page hides or repeats some"
                    ))
            }
        }
        return report
    }

    /// Checks `record`, whose stored rollup rows are `rows` (by UTC day).
    private func check<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, rows: [Int64: [UInt8]], txn: borrowing T, zlib: ZlibCodec,
        report: inout VerificationReport
    ) throws {
        var expectedDays = Set<Int64>()
        /// The start ranges of pieces that could not be decoded.
        var damagedRanges: [Range<Int64>] = []
        var pending: [Sample] = []
        var checkedThrough = Int64.min  // days before this are done

        func problem(_ kind: VerificationReport.Problem.Kind, _ at: Int64, _ detail: String) {
            report.problems.append(
                .init(kind: kind, series: record.name, at: Date(milliseconds: at), detail: detail))
        }

        let (legacyRows, damagedBlocks) = try legacyRollupRows(record, txn: txn) {
            problem(.damagedRollup, $0, $1)
        }
        var rows = rows
        // A store of the hour grid keeps the rows of its newest days only: the summaries of
        // the others are checked against rows recomputed from samples.
        let storesRows = storage.rollupGrid.keepsEveryRow

        /// Whether a sample of a damaged piece could touch `day`, so its rollup cannot be checked.
        func dependsOnDamage(_ day: Int64) -> Bool {
            let dayStart = day * TimeGrid.day
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
                let dayStart = day * TimeGrid.day
                // Damage is already reported: a piece the day's samples may come from, or the day's block.
                if dependsOnDamage(day)
                    || (rows[day] == nil && damagedBlocks.contains(RollupBlock.index(ofDay: day)))
                {
                    continue
                }
                let rollup = DayRollup.build(day: day, kind: record.kind, from: pending)
                report.rollupsChecked += 1
                if let stored = rows[day] {
                    if stored != RollupRowCodec.encode(rollup, version: stored.first ?? 0) {
                        problem(
                            .rollupMismatch, dayStart,
                            "stored rollup differs from the one recomputed from samples")
                    }
                } else if let legacy = legacyRows[day] {
                    if let issue = Self.legacyDisagreement(legacy, rollup) {
                        problem(.rollupMismatch, dayStart, issue)
                    }
                } else if !storesRows {
                    if !rollup.isEmpty {
                        rows[day] = RollupRowCodec.encode(rollup, version: CompactRowCodec.version)
                    }
                } else if !rollup.isEmpty {
                    // (A discrete series' day that samples only span, with no start, has no row.)
                    problem(.missingRollup, dayStart, "no rollup row for a day with samples")
                }
            }
            checkedThrough = max(checkedThrough, boundaryDay)
            let boundary = boundaryDay * TimeGrid.day
            pending.removeAll { $0.endMilliseconds <= boundary && $0.startMilliseconds < boundary }
        }

        let pieces = try storage.pieces(of: record, startingFrom: .min, through: .max, in: txn)
        var previousLast: Sample?
        for (position, piece) in pieces.enumerated() {
            let lowerBound = piece.lowerBound(chunkWindow: storage.chunkWindow)
            try settle(before: lowerBound.floorDivided(by: TimeGrid.day))
            var samples: [Sample] = []
            report.chunksChecked += 1
            do {
                _ = try storage.decode(
                    piece, of: record, zlib: zlib, in: txn, appendingTo: &samples)
            } catch let error as StoreError {
                let upperBound =
                    position + 1 < pieces.count
                    ? pieces[position + 1].lowerBound(chunkWindow: storage.chunkWindow) : .max
                damagedRanges.append(lowerBound..<max(upperBound, lowerBound + 1))
                problem(.damagedChunk, lowerBound, "\(error)")
                continue
            }
            report.samplesChecked += samples.count
            if let issue = invariantViolation(
                samples, piece: piece, after: previousLast, record: record)
            {
                problem(.inconsistentChunk, lowerBound, issue)
            }
            previousLast = samples.last
            pending.append(contentsOf: samples)
        }
        try settle(before: .max / TimeGrid.day)

        try checkHourSummaries(
            of: record, rows: rows, unchecked: dependsOnDamage, txn: txn, problem: problem)

        let storedDays = Set(rows.keys).union(legacyRows.keys)
        for day in storedDays.sorted() where !expectedDays.contains(day) && !dependsOnDamage(day) {
            do {
                if let row = rows[day] {
                    try row.withUnsafeBytes { try RollupRowCodec.forEachSlot($0) { _, _, _, _ in } }
                } else if let row = legacyRows[day] {
                    try row.withUnsafeBytes { try RollupCodec.forEachSlot($0) { _, _, _, _ in } }
                }
                problem(.orphanRollup, day * TimeGrid.day, "rollup row for a day without samples")
            } catch {
                problem(.damagedRollup, day * TimeGrid.day, "\(error)")
            }
        }
    }

    /// Compares the stored hour summaries of `record` with those built from its rollup
    /// rows, byte for byte (when the store has finished building them), but on the days
    /// `unchecked` names (damaged samples may touch them; in a store of the hour grid
    /// they have no row to compare with).
    private func checkHourSummaries<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, rows: [Int64: [UInt8]], unchecked: (Int64) -> Bool,
        txn: borrowing T,
        problem: (VerificationReport.Problem.Kind, Int64, String) -> Void
    ) throws {
        guard let hours = try storage.hourSummaries(in: txn) else { return }
        var stored: [Int64: [UInt8]] = [:]
        let daysPerRow = HourSummaryCodec.daysPerRow(record.kind)
        try txn.withCursor(hours) { cursor in
            try cursor.forEach(from: StorageKey.make(series: record.id, index: .min)) {
                key, value in
                guard let parsed = StorageKey.parse(key), parsed.series == record.id else {
                    return false
                }
                for (offset, segment) in HourSummaryCodec.segments(of: value, kind: record.kind) {
                    stored[parsed.index * daysPerRow + Int64(offset)] = segment
                }
                return true
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
                    day * TimeGrid.day,
                    "hour summary differs from the one built from the day's rollup row")
            }
        }
        for day in stored.keys.sorted() where rows[day] == nil && !unchecked(day) {
            problem(.orphanRollup, day * TimeGrid.day, "hour summary of a day without a rollup row")
        }
    }

    /// The format-1 rows of `record` by day, and the blocks that could not be read.
    private func legacyRollupRows<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, txn: borrowing T, damaged: (Int64, String) -> Void
    ) throws -> ([Int64: [UInt8]], Set<Int64>) {
        var rows: [Int64: [UInt8]] = [:]
        var damagedBlocks = Set<Int64>()
        try txn.withCursor(storage.rollups) { cursor in
            try cursor.forEach(from: StorageKey.make(series: record.id, index: .min)) {
                key, value in
                guard let parsed = StorageKey.parse(key), parsed.series == record.id else {
                    return false
                }
                do {
                    try RollupBlock.forEachRow(value) { offset, row in
                        rows[parsed.index * RollupBlock.days + Int64(offset)] = Array(row)
                    }
                } catch {
                    damagedBlocks.insert(parsed.index)
                    damaged(
                        parsed.index * RollupBlock.days * TimeGrid.day,
                        "rollup block of 7 days: \(error)")
                }
                return true
            }
        }
        return (rows, damagedBlocks)
    }

    /// How a format-1 row disagrees with `expected`, or `nil` when its figures agree
    /// within 1e-9 of their magnitude.
    private static func legacyDisagreement(_ row: [UInt8], _ expected: DayRollup) -> String? {
        var stored: [(slot: Int, prorated: Double, count: UInt32, startSum: Double)] = []
        do {
            try row.withUnsafeBytes { bytes in
                try RollupCodec.forEachSlot(bytes) { stored.append(($0, $1, $2, $3)) }
            }
        } catch {
            return "format-1 rollup row: \(error)"
        }
        func near(_ lhs: Double, _ rhs: Double) -> Bool {
            abs(lhs - rhs) <= 1e-9 * max(abs(lhs), abs(rhs), 1)
        }
        let touched = (0..<DayRollup.slotCount).filter { expected.touched[$0] }
        guard stored.map(\.slot) == touched else {
            return "format-1 rollup row touches other slots than its samples"
        }
        for figures in stored
        where figures.count != expected.startCounts[figures.slot]
            || !near(figures.prorated, expected.prorated(figures.slot))
            || !near(figures.startSum, expected.startSum(figures.slot))
        {
            return "format-1 rollup row differs from its samples in slot \(figures.slot)"
        }
        return nil
    }

    private func invariantViolation(
        _ samples: [Sample], piece: StoredPiece, after previous: Sample?, record: SeriesRecord
    ) -> String? {
        switch piece {
        case .block(let key):
            if samples.first?.startMilliseconds != key {
                return "the block's key is not its first sample's start"
            }
            if samples.count > SampleStorage.maximumBlockSamples,
                let first = samples.first,
                samples[SampleStorage.maximumBlockSamples].startMilliseconds
                    != first.startMilliseconds
            {
                return "the block holds more than \(SampleStorage.maximumBlockSamples) samples"
            }
        case .chunk(let window):
            let windowStart = window * storage.chunkWindow
            if samples.contains(where: {
                $0.startMilliseconds < windowStart
                    || $0.startMilliseconds >= windowStart + storage.chunkWindow
            }) {
                return "a sample starts outside the chunk's window"
            }
        }
        if let previous, let first = samples.first,
            (previous.startMilliseconds, previous.endMilliseconds) >= (
                first.startMilliseconds, first.endMilliseconds
            )
        {
            return "the piece's first sample does not follow the previous piece's last"
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
