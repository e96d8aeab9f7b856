import Foundation

/// The check of the records of sample versions that name no identity (layout 4): such a record
/// gives its version to every sample its stream holds on its UTC day but those later records
/// name. It was written for the day's samples then, and while it stands the day loses none (a
/// deletion lists them first) and gains only samples later records name. So the day's samples
/// number at least as many as it stands for, and at most that many and those later records
/// name; a sample gained or lost outside the write path would take a wrong version or none.
///
/// The integrity check's walk over a stream's blocks hands each decoded block to ``add(_:)``,
/// so no block is decoded twice.
struct WholeDayTally {
    private let records: [SyncTable.WholeDayRecord]
    private var counts: [(all: Int, laidOver: Int)]
    /// The day of the last sample added and its record's index (samples come in start order).
    private var last: (day: Int64, index: Int?) = (.min, nil)

    /// A tally of a stream's layout-4 days, `records` (sorted by day, from
    /// ``SyncTable/wholeDayRecords(zlib:in:)``).
    init(records: [SyncTable.WholeDayRecord]) {
        self.records = records
        counts = Array(repeating: (0, 0), count: records.count)
    }

    /// Counts `samples`, decoded from one of the stream's blocks.
    mutating func add(_ samples: [Sample]) {
        guard !records.isEmpty else { return }
        for sample in samples {
            let day = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
            if day != last.day { last = (day, records.index(ofDay: day)) }
            guard let index = last.index else { continue }
            counts[index].all += 1
            if records[index].laidOver.entry(
                start: sample.startMilliseconds, end: sample.endMilliseconds) != nil
            {
                counts[index].laidOver += 1
            }
        }
    }

    /// The records whose day, once every block of the stream was added, holds fewer samples
    /// than they stand for, or more than that and those later records name.
    func problems(series: String, source: String) -> [VerificationReport.Problem] {
        zip(records, counts).compactMap { record, found in
            guard
                found.all < record.wholeDay.count
                    || found.all - found.laidOver > record.wholeDay.count
            else { return nil }
            return VerificationReport.Problem(
                kind: .damagedChangeLog, series: series,
                at: Date(milliseconds: TimeGrid.clampedStart(ofDay: record.day)),
                detail:
                    "source \(source): the day's record of versions stands for \(record.wholeDay.count) samples it does not list, but the blocks hold \(found.all), \(found.laidOver) of them named by later records"
            )
        }
    }
}
