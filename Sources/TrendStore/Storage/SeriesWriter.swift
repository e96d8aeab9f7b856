import LMDB

/// Applies changes to one series inside one write transaction: merges samples into
/// chunks, then recomputes the rollups of every UTC day a changed sample touches, and
/// reports which instants changed (it calls nothing above the storage layer).
///
/// Chunks decoded or merged during the transaction stay in memory, so each window
/// is decoded at most once per write.
struct SeriesWriter: ~Copyable {
    let storage: SampleStorage
    var record: SeriesRecord
    let zlib: ZlibCodec
    /// Decoded samples of the windows this writer has read or written, sorted.
    private var windows: [Int64: [Sample]] = [:]
    /// The UTC days whose rollups must be recomputed.
    private var touchedDays = Set<Int64>()

    init(storage: SampleStorage, record: SeriesRecord, zlib: ZlibCodec) {
        self.storage = storage
        self.record = record
        self.zlib = zlib
    }

    /// Upserts `batch`: new identities are inserted, existing ones get the batch's value.
    mutating func upsert(_ batch: SampleBatch, in txn: borrowing WriteTransaction) throws
        -> WriteSummary
    {
        if batch.maximumDuration > record.maximumDuration {
            record.maximumDuration = batch.maximumDuration
            try storage.saveSeriesRecord(record, in: txn)
        }
        var summary = WriteSummary()
        let samples = batch.samples
        var runStart = 0
        while runStart < samples.count {
            let window = storage.windowIndex(of: samples[runStart].startMilliseconds)
            var runEnd = runStart + 1
            while runEnd < samples.count
                && storage.windowIndex(of: samples[runEnd].startMilliseconds) == window
            {
                runEnd += 1
            }
            let existing = try windowSamples(window, in: txn)
            let merge = SampleMerge(existing: existing, incoming: samples[runStart..<runEnd])
            summary += merge.summary
            if !merge.changed.isEmpty {
                for sample in merge.changed { touch(sample) }
                try store(merge.merged, window: window, in: txn)
            }
            runStart = runEnd
        }
        return summary
    }

    /// Removes the samples whose start lies in `[from, to)`; returns how many there were.
    mutating func delete(from: Int64, to: Int64, in txn: borrowing WriteTransaction) throws -> Int {
        guard from < to else { return 0 }
        let windows = try storage.existingWindows(
            series: record.id, from: storage.windowIndex(of: from),
            through: storage.windowIndex(of: to - 1), in: txn)
        var removed = 0
        for window in windows {
            let samples = try windowSamples(window, in: txn)
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
            if kept.count != samples.count { try store(kept, window: window, in: txn) }
        }
        return removed
    }

    /// Recomputes the rollup of every touched day from the chunks as they now are.
    ///
    /// A stored block that cannot be read is rebuilt whole, so a write repairs it.
    ///
    /// - Returns: The instants whose figures the changes may have altered (whole UTC days),
    ///   for the layers above to invalidate what they derived from them; `nil` when nothing changed.
    @discardableResult
    mutating func finish(in txn: borrowing WriteTransaction) throws -> Range<Int64>? {
        var blocks: [Int64: RollupBlock] = [:]
        for index in Set(touchedDays.map(RollupBlock.index(ofDay:))) {
            if let stored = try storedBlock(index, in: txn) {
                blocks[index] = stored
            } else {
                blocks[index] = RollupBlock(index: index)
                for offset in 0..<RollupBlock.days {
                    touchedDays.insert(index * RollupBlock.days + offset)
                }
            }
        }
        for day in touchedDays.sorted() {
            let dayStart = day * TimeGrid.day
            let overlapping = try samples(
                startingFrom: dayStart - record.maximumDuration, before: dayStart + TimeGrid.day,
                in: txn)
            let rollup = DayRollup.build(day: day, from: overlapping)
            blocks[RollupBlock.index(ofDay: day)]!.set(
                rollup.isEmpty ? nil : RollupCodec.encode(rollup), forDay: day)
        }
        for (index, block) in blocks {
            let key = StorageKey.make(series: record.id, index: index)
            if block.isEmpty {
                try txn.delete(forKey: key, in: storage.rollups)
            } else {
                try txn.put(block.encoded(), forKey: key, in: storage.rollups)
            }
        }
        defer { touchedDays.removeAll() }
        guard let first = touchedDays.min(), let last = touchedDays.max() else { return nil }
        return (first * TimeGrid.day)..<((last + 1) * TimeGrid.day)
    }

    /// The stored block (empty when there is none), or `nil` when it is damaged.
    private func storedBlock(_ index: Int64, in txn: borrowing WriteTransaction) throws
        -> RollupBlock?
    {
        let key = StorageKey.make(series: record.id, index: index)
        let stored: RollupBlock?? = try key.withUnsafeBytes { key in
            try txn.withValue(forKey: key, in: storage.rollups) {
                try? RollupBlock(index: index, bytes: $0)
            }
        }
        guard let stored else { return RollupBlock(index: index) }
        return stored
    }

    private mutating func touch(_ sample: Sample) {
        let first = sample.startMilliseconds.floorDivided(by: TimeGrid.day)
        let lastInstant =
            sample.endMilliseconds > sample.startMilliseconds
            ? sample.endMilliseconds - 1 : sample.startMilliseconds
        let last = lastInstant.floorDivided(by: TimeGrid.day)
        for day in first...last { touchedDays.insert(day) }
    }

    private mutating func store(
        _ samples: [Sample], window: Int64, in txn: borrowing WriteTransaction
    ) throws {
        let key = StorageKey.make(series: record.id, index: window)
        if samples.isEmpty {
            try txn.delete(forKey: key, in: storage.chunks)
        } else {
            try txn.put(
                try ChunkCodec.encode(samples[...], zlib: zlib), forKey: key,
                in: storage.chunks)
        }
        windows[window] = samples
    }

    private mutating func windowSamples(_ window: Int64, in txn: borrowing WriteTransaction) throws
        -> [Sample]
    {
        if let cached = windows[window] { return cached }
        var samples: [Sample] = []
        _ = try storage.decodeChunk(
            record, window: window, zlib: zlib, in: txn, appendingTo: &samples)
        windows[window] = samples
        return samples
    }

    /// The samples starting in `[from, before)`, in order.
    private mutating func samples(
        startingFrom from: Int64, before: Int64, in txn: borrowing WriteTransaction
    ) throws -> [Sample] {
        let windowIndices = try storage.existingWindows(
            series: record.id, from: storage.windowIndex(of: from),
            through: storage.windowIndex(of: before - 1), in: txn)
        var result: [Sample] = []
        for window in windowIndices {
            let samples = try windowSamples(window, in: txn)
            var index = samples.partitioningIndex { $0.startMilliseconds >= from }
            while index < samples.count && samples[index].startMilliseconds < before {
                result.append(samples[index])
                index += 1
            }
        }
        return result
    }
}

/// The merge of a window's stored samples with incoming ones of the same window.
struct SampleMerge {
    /// The window's samples after the merge, sorted.
    private(set) var merged: [Sample] = []
    /// Incoming samples that were new or changed a stored value.
    private(set) var changed: [Sample] = []
    private(set) var summary = WriteSummary()

    /// Merges sorted, identity-unique `incoming` into sorted, identity-unique `existing`.
    init(existing: [Sample], incoming: ArraySlice<Sample>) {
        merged.reserveCapacity(existing.count + incoming.count)
        var old = existing.startIndex
        var new = incoming.startIndex
        while old < existing.endIndex || new < incoming.endIndex {
            if new == incoming.endIndex {
                merged.append(existing[old]); old += 1
            } else if old == existing.endIndex || Self.precedes(incoming[new], existing[old]) {
                merged.append(incoming[new]); changed.append(incoming[new]); summary.inserted += 1;
                new += 1
            } else if Self.precedes(existing[old], incoming[new]) {
                merged.append(existing[old]); old += 1
            } else {
                merged.append(incoming[new])
                if incoming[new].value.bitPattern == existing[old].value.bitPattern {
                    summary.unchanged += 1
                } else {
                    changed.append(incoming[new]); summary.replaced += 1
                }
                old += 1; new += 1
            }
        }
    }

    @inline(__always)
    private static func precedes(_ lhs: Sample, _ rhs: Sample) -> Bool {
        lhs.startMilliseconds != rhs.startMilliseconds
            ? lhs.startMilliseconds < rhs.startMilliseconds
            : lhs.endMilliseconds < rhs.endMilliseconds
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false then true along the array.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
