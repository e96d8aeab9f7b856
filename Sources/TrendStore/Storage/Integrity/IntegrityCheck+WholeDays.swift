import Foundation
import LMDB

/// The check of the records of sample versions that name no identity (layout 4): such a record
/// gives its version to every sample its stream holds on its UTC day but those later records
/// name. It was written for the day's samples then, and while it stands the day loses none (a
/// deletion lists them first) and gains only samples later records name. So the day's samples
/// number at least as many as it stands for, and at most that many and those later records
/// name; a sample gained or lost outside the write path would take a wrong version or none.
extension IntegrityCheck {
    /// Compares each layout-4 record of `record`'s sources with the blocks: one walk over the
    /// blocks of the stream's days, each block decoded once. A damaged block ends the stream's
    /// comparison (the block check reports it).
    func checkWholeDays<T: ReadableTransaction & ~Copyable>(
        of record: SeriesRecord, txn: borrowing T, zlib: ZlibCodec,
        report: inout VerificationReport
    ) throws {
        guard let sync = storage.sync else { return }
        for stream in try storage.streams(of: record, in: txn) {
            let records = try sync.wholeDayRecords(ofStream: stream.record.id, zlib: zlib, in: txn)
            // A day no sample can start on (a damaged key's) holds none: it is reported below.
            let reachable = records.filter {
                $0.day > Int64.min / TimeGrid.day && $0.day < Int64.max / TimeGrid.day - 1
            }
            guard let first = reachable.first, let last = reachable.last else { continue }
            let byDay = Dictionary(reachable.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
            var counts: [Int64: (all: Int, laidOver: Int)] = [:]
            do {
                _ = try storage.forEachBlockOfSamples(
                    of: stream.record, from: Self.start(ofDay: first.day),
                    to: Self.start(ofDay: last.day + 1), in: txn, zlib: zlib
                ) { samples in
                    for sample in samples {
                        let day = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
                        guard let whole = byDay[day] else { continue }
                        let listed =
                            whole.laidOver.entry(
                                start: sample.startMilliseconds, end: sample.endMilliseconds)
                            != nil
                        counts[day, default: (0, 0)].all += 1
                        if listed { counts[day, default: (0, 0)].laidOver += 1 }
                    }
                }
            } catch is StoreError {
                continue
            }
            for whole in records {
                let found = counts[whole.day, default: (0, 0)]
                guard
                    found.all < whole.wholeDay.count
                        || found.all - found.laidOver > whole.wholeDay.count
                else { continue }
                report.problems.append(
                    .init(
                        kind: .damagedChangeLog, series: record.name,
                        at: Date(milliseconds: Self.start(ofDay: whole.day)),
                        detail:
                            "source \(stream.name): the day's record of versions stands for \(whole.wholeDay.count) samples it does not list, but the blocks hold \(found.all), \(found.laidOver) of them named by later records"
                    ))
            }
        }
    }

    /// The first instant of UTC day `day`, or the nearest bound of `Int64` beyond it.
    private static func start(ofDay day: Int64) -> Int64 {
        let (start, overflow) = day.multipliedReportingOverflow(by: TimeGrid.day)
        return overflow ? (day < 0 ? .min : .max) : start
    }
}
