import Foundation
import LMDB

/// The check of a series of several sources: every source's blocks are decoded and checked,
/// then the series' rows are compared with rows rebuilt from the merged view of its sources
/// (``SourceMerge``), as the write path builds them, but for the days a priority change has
/// yet to rebuild (``PriorityRebuild``).
extension IntegrityCheck {
    /// How many days of merged samples are held at once.
    private static let daysPerPass = 64

    /// Checks `record`, a series of several sources, whose stored rows are `rows`.
    func checkMerged<T: ReadableTransaction & ~Copyable>(
        _ record: SeriesRecord, rows: inout [Int64: [UInt8]],
        wholeDays: [UInt32: [SyncTable.WholeDayRecord]], txn: borrowing T, zlib: ZlibCodec,
        report: inout VerificationReport
    ) throws {
        var problems: [VerificationReport.Problem] = []
        func problem(_ kind: VerificationReport.Problem.Kind, _ at: Int64, _ detail: String) {
            problems.append(
                .init(kind: kind, series: record.name, at: Date(milliseconds: at), detail: detail))
        }
        let streams = try storage.streams(of: record, in: txn)
        var days = Set<Int64>()
        var damaged = false
        for stream in streams {
            var previousLast: Sample?
            var wholeDayTally = WholeDayTally(records: wholeDays[stream.record.id] ?? [])
            var streamDamaged = false
            for firstStart in try storage.blockStarts(
                of: stream.record, startingFrom: .min, through: .max, in: txn)
            {
                var samples: [Sample] = []
                report.blocksChecked += 1
                do {
                    _ = try storage.withBlock(firstStart, of: stream.record, in: txn) { bytes in
                        try storage.decodeBlock(
                            bytes, firstStart: firstStart, of: stream.record, zlib: zlib,
                            appendingTo: &samples)
                    }
                } catch let error as StoreError {
                    damaged = true
                    streamDamaged = true
                    problem(.damagedBlock, firstStart, "source \(stream.name): \(error)")
                    continue
                }
                report.samplesChecked += samples.count
                if let issue = invariantViolation(
                    samples, firstStart: firstStart, after: previousLast, record: stream.record)
                {
                    problem(.inconsistentBlock, firstStart, "source \(stream.name): \(issue)")
                }
                previousLast = samples.last
                wholeDayTally.add(samples)
                for sample in samples {
                    let first = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
                    let lastInstant = max(sample.startMilliseconds, sample.endMilliseconds - 1)
                    for day in first...lastInstant.floorDivided(by: TimeGrid.day) {
                        days.insert(day)
                    }
                }
            }
            // A damaged block's samples cannot be counted: its damage is reported.
            if !streamDamaged {
                problems += wholeDayTally.problems(series: record.name, source: stream.name)
            }
        }
        // Days a priority change has yet to rebuild hold the old order's rows by design.
        let unrebuilt =
            record.rebuildsRows
            ? try storage.sources?.pendingRebuild(of: record.id, in: txn) ?? 0..<0 : 0..<0
        let sorted = days.filter { !unrebuilt.contains($0) }.sorted()
        // With a damaged block the merged figures cannot be recomputed: its damage is reported.
        if !damaged {
            let reach = record.maximumDuration
            for first in stride(from: 0, to: sorted.count, by: Self.daysPerPass) {
                let pass = sorted[first..<min(first + Self.daysPerPass, sorted.count)]
                guard let low = pass.first, let high = pass.last else { continue }
                let merged = try storage.merged(
                    streams, of: record, startingFrom: low * TimeGrid.day - reach,
                    through: (high + 1) * TimeGrid.day - 1, in: txn, zlib: zlib)
                for day in pass {
                    let dayStart = day * TimeGrid.day
                    let from = merged.samples.partitioningIndex {
                        $0.startMilliseconds >= dayStart - reach
                    }
                    let to = merged.samples.partitioningIndex {
                        $0.startMilliseconds >= dayStart + TimeGrid.day
                    }
                    let slice = MergedSamples(
                        samples: Array(merged.samples[from..<to]),
                        roles: Array(merged.roles[from..<to]))
                    report.rollupsChecked += 1
                    compare(
                        DayRollup.build(day: day, kind: record.kind, merged: slice), with: &rows,
                        problem: problem)
                }
            }
        }
        try finishCheck(
            of: record, rows: rows, expectedDays: days,
            unchecked: { damaged || unrebuilt.contains($0) }, txn: txn,
            problem: problem)
        report.problems += problems
    }
}
