import LMDB

/// Applies changes to one series inside one write transaction: merges samples into the
/// blocks they fall into, then brings the rollup row of every UTC day a change touches
/// up to date, and reports which instants changed (it calls nothing above the storage layer).
///
/// A write touches only its blocks: a sample goes to the block with the greatest key at
/// or before its start (or the first block), in-order appends go to the last block, and a
/// full block that a write only appends after is left as it is. A merge that overfills a
/// block splits it into even parts, never between samples sharing a start.
///
/// Blocks decoded or merged during the transaction stay in memory, so each is decoded at
/// most once per write.
struct SeriesWriter: ~Copyable {
    let storage: SampleStorage
    var record: SeriesRecord
    let zlib: ZlibCodec
    private let blockDatabase: Database
    private let dayDatabase: Database
    /// Decoded samples of the blocks this writer has read or written, by key.
    private var blocks: [Int64: [Sample]] = [:]
    /// The days whose rows must be rebuilt from their samples.
    private var daysToRebuild = Set<Int64>()
    /// Samples inserted whole into one quarter-hour, by day: rows that can be updated in place.
    private var containedInserts: [Int64: [Sample]] = [:]

    init(storage: SampleStorage, record: SeriesRecord, zlib: ZlibCodec) throws {
        self.storage = storage
        self.record = record
        self.zlib = zlib
        (blockDatabase, dayDatabase) = try storage.formatTwoDatabases()
    }

    /// Upserts `batch`: new identities are inserted, existing ones get the batch's value.
    mutating func upsert(_ batch: SampleBatch, in txn: borrowing WriteTransaction) throws
        -> WriteSummary
    {
        if batch.maximumDuration > record.maximumDuration {
            record.maximumDuration = batch.maximumDuration
            try storage.saveSeriesRecord(record, in: txn)
        }
        return try upsert(batch.samples[...], in: txn)
    }

    /// Upserts sorted, identity-unique samples.
    private mutating func upsert(_ samples: ArraySlice<Sample>, in txn: borrowing WriteTransaction)
        throws -> WriteSummary
    {
        var summary = WriteSummary()
        var runStart = samples.startIndex
        while runStart < samples.endIndex {
            let (target, next) = try locate(samples[runStart].startMilliseconds, in: txn)
            var runEnd = runStart + 1
            if let next {
                while runEnd < samples.endIndex && samples[runEnd].startMilliseconds < next {
                    runEnd += 1
                }
            } else {
                runEnd = samples.endIndex
            }
            let existing = try target.map { try blockSamples($0, in: txn) } ?? []
            let merge = SampleMerge(existing: existing, incoming: samples[runStart..<runEnd])
            summary += merge.summary
            if !merge.inserted.isEmpty || !merge.replaced.isEmpty {
                for sample in merge.inserted { noteInsert(sample) }
                for sample in merge.replaced { touch(sample) }
                try store(merge.merged, replacing: target, existing: existing, in: txn)
            }
            runStart = runEnd
        }
        return summary
    }

    /// Removes the samples whose start lies in `[from, to)`; returns how many there were.
    mutating func delete(from: Int64, to: Int64, in txn: borrowing WriteTransaction) throws -> Int {
        guard from < to else { return 0 }
        var removed = 0
        for piece in try storage.pieces(
            of: record, startingFrom: from, through: to - 1, in: txn)
        {
            let samples = try pieceSamples(piece, in: txn)
            var kept: [Sample] = []
            kept.reserveCapacity(samples.count)
            for sample in samples {
                if sample.startMilliseconds >= from && sample.startMilliseconds < to {
                    touch(sample)
                    removed += 1
                } else {
                    kept.append(sample)
                }
            }
            guard kept.count != samples.count else { continue }
            switch piece {
            case .block(let key):
                try store(kept, replacing: key, existing: samples, in: txn)
            case .chunk:
                try moveToBlocks(piece, keeping: kept, in: txn)
            }
        }
        return removed
    }

    /// Rewrites a format-1 chunk as blocks (the format migration's step): the chunk is
    /// removed and its samples inserted into the blocks.
    mutating func migrate(_ piece: StoredPiece, in txn: borrowing WriteTransaction) throws {
        let samples = try pieceSamples(piece, in: txn)
        try moveToBlocks(piece, keeping: samples, in: txn)
    }

    /// Rebuilds the rows of `days` from the samples (a day without samples loses its row).
    mutating func rebuildRows(ofDays days: Range<Int64>, in txn: borrowing WriteTransaction) throws
    {
        daysToRebuild.formUnion(days)
        try finish(in: txn)
    }

    private mutating func moveToBlocks(
        _ piece: StoredPiece, keeping samples: [Sample], in txn: borrowing WriteTransaction
    ) throws {
        try txn.delete(
            forKey: storage.location(of: piece, series: record.id).key, in: storage.chunks)
        for sample in samples { touch(sample) }
        _ = try upsert(samples[...], in: txn)
    }

    /// Brings the rollup row of every touched day up to date.
    ///
    /// - Returns: The instants whose figures the changes may have altered (whole UTC days),
    ///   for the layers above to invalidate what they derived from them; `nil` when nothing changed.
    @discardableResult
    mutating func finish(in txn: borrowing WriteTransaction) throws -> Range<Int64>? {
        var changedDays = daysToRebuild
        for (day, inserts) in containedInserts where !daysToRebuild.contains(day) {
            changedDays.insert(day)
            if try !updateInPlace(day: day, inserting: inserts, in: txn) {
                daysToRebuild.insert(day)
            }
        }
        for day in daysToRebuild.sorted() {
            let dayStart = day * TimeGrid.day
            let overlapping = try samples(
                startingFrom: dayStart - record.maximumDuration, before: dayStart + TimeGrid.day,
                in: txn)
            try putRow(DayRollup.build(day: day, from: overlapping), in: txn)
        }
        defer {
            daysToRebuild.removeAll()
            containedInserts.removeAll()
        }
        guard let first = changedDays.min(), let last = changedDays.max() else { return nil }
        return (first * TimeGrid.day)..<((last + 1) * TimeGrid.day)
    }

    // MARK: Rollup rows

    /// Adds samples each contained in one quarter-hour of `day` to its stored row, the
    /// same bits a rebuild would give; `false` when the row must be rebuilt instead (it is
    /// in the `Double` form, a value does not scale at its exponent, a sum would overflow,
    /// or it cannot be read).
    private mutating func updateInPlace(
        day: Int64, inserting inserts: [Sample], in txn: borrowing WriteTransaction
    ) throws -> Bool {
        let key = StorageKey.make(series: record.id, index: day)
        let stored: DayRollup?? = try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: dayDatabase) {
                try? RollupRowCodec.decode($0, day: day)
            }
        }
        var rollup: DayRollup
        switch stored {
        case .none:
            // No row: nothing else touches the day, so these samples are all of it.
            rollup = DayRollup.build(day: day, from: inserts)
        case .some(.none):
            return false
        case .some(.some(let row)):
            guard let exponent = row.exponent else { return false }
            rollup = row
            let dayStart = day * TimeGrid.day
            for sample in inserts {
                guard let integer = DecimalScale.scaled(sample.value, exponent: exponent) else {
                    return false
                }
                let slot = Int((sample.startMilliseconds - dayStart) / TimeGrid.quarterHour)
                let (sum, overflow) = rollup.startIntegers[slot].addingReportingOverflow(integer)
                guard !overflow else { return false }
                rollup.startIntegers[slot] = sum
                rollup.startCounts[slot] += 1
                rollup.touched[slot] = true
            }
        }
        try putRow(rollup, in: txn)
        return true
    }

    private func putRow(_ rollup: DayRollup, in txn: borrowing WriteTransaction) throws {
        let key = StorageKey.make(series: record.id, index: rollup.day)
        if rollup.isEmpty {
            try txn.delete(forKey: key, in: dayDatabase)
        } else {
            try txn.put(RollupRowCodec.encode(rollup), forKey: key, in: dayDatabase)
        }
    }

    /// Notes an inserted sample: its day's row can take it in place when it lies in one quarter-hour.
    private mutating func noteInsert(_ sample: Sample) {
        let start = sample.startMilliseconds
        let slotEnd = (start.floorDivided(by: TimeGrid.quarterHour) + 1) * TimeGrid.quarterHour
        if sample.endMilliseconds == start || sample.endMilliseconds <= slotEnd {
            containedInserts[start.floorDivided(by: TimeGrid.day), default: []].append(sample)
        } else {
            touch(sample)
        }
    }

    /// Marks every day `sample` touches for a rebuild.
    private mutating func touch(_ sample: Sample) {
        let first = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
        let lastInstant =
            sample.endMilliseconds > sample.startMilliseconds
            ? sample.endMilliseconds - 1 : sample.startMilliseconds
        let last = lastInstant.floorDivided(by: TimeGrid.day)
        for day in first...last { daysToRebuild.insert(day) }
    }

    // MARK: Blocks

    /// The key of the block a sample starting at `start` belongs in (`nil` when the series
    /// has none), and the key of the block after it.
    private func locate(_ start: Int64, in txn: borrowing WriteTransaction) throws -> (
        target: Int64?, next: Int64?
    ) {
        let id = record.id
        return try txn.withCursor(blockDatabase) { cursor in
            func ownKey(_ entry: Cursor.Entry?) -> Int64? {
                guard let entry, let parsed = StorageKey.parse(entry.key), parsed.series == id
                else { return nil }
                return parsed.index
            }
            let found = try cursor.seek(atOrAfter: StorageKey.make(series: id, index: start))
            let atOrAfter = ownKey(found)
            if atOrAfter == start { return (start, ownKey(try cursor.next())) }
            if let before = ownKey(found == nil ? try cursor.last() : try cursor.previous()) {
                return (before, atOrAfter)
            }
            // Earlier than every block: the first block takes it.
            guard let first = atOrAfter else { return (nil, nil) }
            _ = try cursor.seek(atOrAfter: StorageKey.make(series: id, index: first))
            return (first, ownKey(try cursor.next()))
        }
    }

    /// Stores `merged` in place of the block `target` held (`existing`), split as needed.
    private mutating func store(
        _ merged: [Sample], replacing target: Int64?, existing: [Sample],
        in txn: borrowing WriteTransaction
    ) throws {
        let limit = SampleStorage.maximumBlockSamples
        var parts: ArraySlice<Sample> = merged[...]
        if target != nil, existing.count >= limit, let last = existing.last,
            merged.count > existing.count,
            merged[existing.count].startMilliseconds > last.startMilliseconds
        {
            // Appends after a full block (so its samples lead `merged` unchanged): leave it,
            // start the next one.
            parts = merged[existing.count...]
        } else if let target {
            try txn.delete(
                forKey: StorageKey.make(series: record.id, index: target), in: blockDatabase)
            blocks[target] = nil
        }
        for part in Self.split(parts, limit: limit) {
            let key = part[part.startIndex].startMilliseconds
            try txn.put(
                try BlockCodec.encode(part, zlib: zlib),
                forKey: StorageKey.make(series: record.id, index: key), in: blockDatabase)
            blocks[key] = Array(part)
        }
    }

    /// `samples` cut into even parts of at most `limit`, never between samples sharing a start.
    static func split(_ samples: ArraySlice<Sample>, limit: Int) -> [ArraySlice<Sample>] {
        guard !samples.isEmpty else { return [] }
        let partCount = (samples.count + limit - 1) / limit
        let size = (samples.count + partCount - 1) / partCount
        var parts: [ArraySlice<Sample>] = []
        var start = samples.startIndex
        while start < samples.endIndex {
            var end = min(start + size, samples.endIndex)
            while end < samples.endIndex
                && samples[end].startMilliseconds == samples[end - 1].startMilliseconds
            {
                end += 1
            }
            parts.append(samples[start..<end])
            start = end
        }
        return parts
    }

    private mutating func blockSamples(_ key: Int64, in txn: borrowing WriteTransaction) throws
        -> [Sample]
    {
        try pieceSamples(.block(firstStart: key), in: txn)
    }

    private mutating func pieceSamples(_ piece: StoredPiece, in txn: borrowing WriteTransaction)
        throws -> [Sample]
    {
        if case .block(let key) = piece, let cached = blocks[key] { return cached }
        var samples: [Sample] = []
        _ = try storage.decode(piece, of: record, zlib: zlib, in: txn, appendingTo: &samples)
        if case .block(let key) = piece { blocks[key] = samples }
        return samples
    }

    /// The samples starting in `[from, before)`, in order.
    private mutating func samples(
        startingFrom from: Int64, before: Int64, in txn: borrowing WriteTransaction
    ) throws -> [Sample] {
        var result: [Sample] = []
        for piece in try storage.pieces(
            of: record, startingFrom: from, through: before - 1, in: txn)
        {
            let samples = try pieceSamples(piece, in: txn)
            var index = samples.partitioningIndex { $0.startMilliseconds >= from }
            while index < samples.count && samples[index].startMilliseconds < before {
                result.append(samples[index])
                index += 1
            }
        }
        return result
    }
}
