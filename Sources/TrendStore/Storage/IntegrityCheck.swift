import Foundation
import LMDB

/// Verifies a store: decodes every chunk, checks every checksum and invariant, and
/// recomputes every rollup from the samples, comparing bytes.
///
/// Series are streamed window by window, keeping only samples that can still reach
/// days not yet checked, so memory stays bounded by the longest sample.
struct IntegrityCheck {
    let storage: SampleStorage

    func run<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> VerificationReport
    {
        var report = VerificationReport()
        let records = try storage.allSeriesRecords(in: txn)
        let zlib = ZlibCodec()
        for record in records {
            report.seriesChecked += 1
            try check(record, txn: txn, zlib: zlib, report: &report)
        }
        let known = Set(records.map(\.id))
        for database in [storage.chunks, storage.rollups] {
            try txn.withCursor(database) { cursor in
                try cursor.forEach { key, _ in
                    let parsed = StorageKey.parse(key)
                    if parsed == nil || !known.contains(parsed!.series) {
                        report.problems.append(
                            .init(
                                kind: .unknownSeries, series: "#\(parsed?.series ?? 0)",
                                at: Date(milliseconds: 0),
                                detail: "key in \(database) belongs to no registered series"))
                    }
                    return true
                }
            }
        }
        return report
    }

    private func check<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, txn: borrowing T, zlib: ZlibCodec,
        report: inout VerificationReport
    ) throws {
        let window = storage.chunkWindow
        var expectedDays = Set<Int64>()
        var damagedWindows: [Int64] = []
        var pending: [Sample] = []
        var checkedThrough = Int64.min  // days before this are done

        func problem(_ kind: VerificationReport.Problem.Kind, _ at: Int64, _ detail: String) {
            report.problems.append(
                .init(kind: kind, series: record.name, at: Date(milliseconds: at), detail: detail))
        }

        var storedRows: [Int64: [UInt8]] = [:]
        var damagedBlocks = Set<Int64>()
        for index in try storage.indices(
            in: storage.rollups, series: record.id, from: .min, through: .max, txn: txn)
        {
            let bytes =
                try txn.value(
                    forKey: StorageKey.make(series: record.id, index: index),
                    in: storage.rollups)
                ?? []
            do {
                try bytes.withUnsafeBytes { bytes in
                    try RollupBlock.forEachRow(bytes) { offset, row in
                        storedRows[index * RollupBlock.days + Int64(offset)] = Array(row)
                    }
                }
            } catch {
                damagedBlocks.insert(index)
                problem(
                    .damagedRollup, index * RollupBlock.days * TimeGrid.day,
                    "rollup block of 7 days: \(error)")
            }
        }

        /// Whether a sample of a damaged chunk could touch `day`, so its rollup cannot be checked.
        func dependsOnDamage(_ day: Int64) -> Bool {
            let dayStart = day * TimeGrid.day
            let reach = dayStart - record.maximumDuration
            return damagedWindows.contains {
                $0 * window < dayStart + TimeGrid.day && ($0 + 1) * window > reach
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
                // Damage is already reported: a chunk the day's samples may come from, or the day's block.
                if dependsOnDamage(day) || damagedBlocks.contains(RollupBlock.index(ofDay: day)) {
                    continue
                }
                let rollup = DayRollup.build(day: day, from: pending)
                let expected = RollupCodec.encode(rollup)
                let stored = storedRows[day]
                report.rollupsChecked += 1
                if stored == nil {
                    problem(.missingRollup, dayStart, "no rollup row for a day with samples")
                } else if stored != expected {
                    problem(
                        .rollupMismatch, dayStart,
                        "stored rollup differs from the one recomputed from samples")
                }
            }
            checkedThrough = max(checkedThrough, boundaryDay)
            let boundary = boundaryDay * TimeGrid.day
            pending.removeAll { $0.endMilliseconds <= boundary && $0.startMilliseconds < boundary }
        }

        let windows = try storage.existingWindows(
            series: record.id, from: .min, through: .max, in: txn)
        for index in windows {
            try settle(before: (index * window).floorDivided(by: TimeGrid.day))
            var samples: [Sample] = []
            report.chunksChecked += 1
            do {
                _ = try storage.decodeChunk(
                    record, window: index, zlib: zlib, in: txn, appendingTo: &samples)
            } catch let error as StoreError {
                damagedWindows.append(index)
                problem(.damagedChunk, index * window, "\(error)")
                continue
            }
            report.samplesChecked += samples.count
            if let issue = invariantViolation(samples, window: index, record: record) {
                problem(.inconsistentChunk, index * window, issue)
            }
            pending.append(contentsOf: samples)
        }
        try settle(before: .max / TimeGrid.day)

        for (day, stored) in storedRows.sorted(by: { $0.key < $1.key })
        where !expectedDays.contains(day) && !dependsOnDamage(day) {
            do {
                try stored.withUnsafeBytes { bytes in
                    try RollupCodec.forEachSlot(bytes) { _, _, _, _ in }
                }
                problem(.orphanRollup, day * TimeGrid.day, "rollup row for a day without samples")
            } catch {
                problem(.damagedRollup, day * TimeGrid.day, "\(error)")
            }
        }
    }

    private func invariantViolation(_ samples: [Sample], window: Int64, record: SeriesRecord)
        -> String?
    {
        let windowStart = window * storage.chunkWindow
        for (index, sample) in samples.enumerated() {
            if sample.startMilliseconds < windowStart
                || sample.startMilliseconds >= windowStart + storage.chunkWindow
            {
                return "sample \(index) starts outside the chunk's window"
            }
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
