import LMDB

/// Finds the days of a commit whose sample versions may be stored without identities
/// (layout 4, `DayVersions+WholeDay.swift`): days that had no record, whose entries share one
/// version and carry no id, and whose entries are exactly the samples the stream holds on the
/// day after the commit. One pass over the blocks of each run of consecutive such days
/// compares them, each block decoded once (a block often holds several days of a minute
/// stream), with no copy of the samples kept.
struct WholeDayFinder {
    let storage: SampleStorage
    let zlib: ZlibCodec

    /// The days of `candidates` (each a day without a record, its entries of one version,
    /// sorted and identity-unique, without ids) that name exactly the samples their
    /// stream (from `streams`, by id) holds that day.
    func wholeDays(
        of candidates: [StreamDay: [DayVersions.Entry]], streams: [UInt32: SeriesRecord],
        in txn: borrowing WriteTransaction
    ) throws -> Set<StreamDay> {
        var whole = Set<StreamDay>()
        let keys = candidates.keys.sorted()
        var runStart = 0
        while runStart < keys.count {
            var runEnd = runStart + 1
            while runEnd < keys.count, keys[runEnd].stream == keys[runStart].stream,
                keys[runEnd].day == keys[runEnd - 1].day + 1
            {
                runEnd += 1
            }
            if let record = streams[keys[runStart].stream] {
                var walk = DayWalk(stream: record.id, candidates: candidates)
                _ = try storage.forEachBlockOfSamples(
                    of: record, from: keys[runStart].day * TimeGrid.day,
                    to: (keys[runEnd - 1].day + 1) * TimeGrid.day, in: txn, zlib: zlib
                ) { samples in
                    for sample in samples { walk.visit(sample, into: &whole) }
                }
                walk.conclude(into: &whole)
            }
            runStart = runEnd
        }
        return whole
    }

    /// Compares a stream's samples, in order, with the entries of their days.
    private struct DayWalk {
        let stream: UInt32
        let candidates: [StreamDay: [DayVersions.Entry]]
        var day = StreamDay(stream: 0, day: .min)
        var entries: [DayVersions.Entry] = []
        var matched = 0
        var matches = false

        init(stream: UInt32, candidates: [StreamDay: [DayVersions.Entry]]) {
            self.stream = stream
            self.candidates = candidates
        }

        mutating func visit(_ sample: Sample, into whole: inout Set<StreamDay>) {
            let sampleDay = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
            if sampleDay != day.day {
                conclude(into: &whole)
                day = StreamDay(stream: stream, day: sampleDay)
                entries = candidates[day] ?? []
                matched = 0
                matches = !entries.isEmpty
            }
            guard matches else { return }
            if matched < entries.count, entries[matched].start == sample.startMilliseconds,
                entries[matched].end == sample.endMilliseconds
            {
                matched += 1
            } else {
                matches = false
            }
        }

        func conclude(into whole: inout Set<StreamDay>) {
            if matches && matched == entries.count { whole.insert(day) }
        }
    }
}
