import LMDB

/// The rollup rows one write transaction changes, stored at its end in key order, with
/// the hour summaries of their days.
///
/// Rows are keyed day first, so the rows of several series written together interleave;
/// put one series at a time, each would land between the previous series' rows and LMDB
/// would split pages in the middle, leaving them half full. Put together in key order after
/// every stored row, they are appended and fill pages whole. Reads of a row this
/// transaction already changed see the change.
///
/// Every changed row's day gets its summary (``DayHours``) rebuilt in the same transaction,
/// from the rollup the row is encoded from (``DayRowChange``), so the `hours` database never
/// disagrees with `days`. A store of the hour grid (``RollupGrid/hour``) keeps the rows of
/// only the two newest days of each series (``keptDays``), so writes as samples arrive
/// update a row in place; older rows are removed once summarised (a bulk write does not
/// encode them), and a write into such a day rebuilds its row from the samples.
final class RowWrites {
    private let days: DayRowTable
    private let hours: HourSummaryTable
    /// The change of each changed row, by key.
    private var changed: [DayRowKey: DayRowChange] = [:]
    /// The kind of each series with changed rows.
    private var kinds: [UInt32: SeriesKind] = [:]
    /// Whether every row is stored (a store of the quarter-hour grid) or only the newest.
    let storesRows: Bool
    /// Where the summaries' hours begin within UTC hours.
    let phase: HourPhase
    /// How many of each series' newest days keep their rows in a store of the hour grid.
    static let keptDays: Int64 = 2

    /// Changes to the rollup rows and hour summaries of `storage` (a writable store), in `txn`.
    init(storage: SampleStorage) {
        days = storage.days
        hours = storage.hours
        storesRows = storage.rollupGrid.keepsEveryRow
        phase = storage.hourPhase
    }

    /// Calls `body` with the row under `key` as this transaction left it, or returns `nil`.
    func withRow<R>(
        forKey key: DayRowKey, in txn: borrowing WriteTransaction,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        if let pending = changed[key] {
            return try pending.row.map { try $0.withUnsafeBytes(body) }
        }
        return try days.withRow(forKey: key, in: txn, body)
    }

    /// Whether the day of the row `key`, which ``withRow(forKey:in:_:)`` did not find, may
    /// still hold samples: not every row is kept (the hour grid) and the day has an hour
    /// summary. A write into such a day rebuilds its row from the samples.
    func mayHoldSamples(
        withoutRow key: DayRowKey, kind: SeriesKind, in txn: borrowing WriteTransaction
    ) throws -> Bool {
        guard !storesRows else { return false }
        // A day this transaction changed and left without a row: it knows whether the day
        // holds samples.
        if let pending = changed[key] { return pending.holdsSamples }
        let (rowKey, offset) = HourSummaryCodec.location(
            ofDay: key.day, series: key.series, kind: kind)
        return try hours.withRow(forKey: rowKey, in: txn) {
            HourSummaryCodec.segments(of: $0, kind: kind)[offset] != nil
        } ?? false
    }

    /// The oldest day whose row is stored when the newest day of its series with samples is
    /// `newestDay`: any in a store of the quarter-hour grid, of the ``keptDays`` newest in
    /// one of the hour grid.
    func oldestKeptDay(newestDay: Int64) -> Int64 {
        storesRows ? .min : newestDay - Self.keptDays + 1
    }

    /// Records `change` of the row under `key`, of a series of `kind`.
    func set(_ change: DayRowChange, forKey key: DayRowKey, kind: SeriesKind) {
        changed[key] = change
        kinds[key.series] = kind
    }

    /// Stores every change in key order, then the hour summaries of the changed days.
    func flush(in txn: borrowing WriteTransaction) throws {
        defer {
            changed.removeAll()
            kinds.removeAll()
        }
        if storesRows {
            if !changed.isEmpty { try days.store(changed.mapValues(\.row), in: txn) }
        } else {
            try days.store(try newestRows(in: txn), in: txn)
        }
        try storeSummaries(in: txn)
    }

    /// The puts and deletions that leave `days` holding, of each series with changed rows,
    /// the rows of its ``keptDays`` newest days with rows.
    private func newestRows(in txn: borrowing WriteTransaction) throws -> [DayRowKey: [UInt8]?] {
        var rows: [DayRowKey: Bool] = [:]
        for key in try storedRows(in: txn) { rows[key] = true }
        for (key, change) in changed { rows[key] = change.holdsSamples }
        var newest: [UInt32: Int64] = [:]
        for (key, present) in rows where present && kinds[key.series] != nil {
            newest[key.series] = max(newest[key.series] ?? .min, key.day)
        }
        var result: [DayRowKey: [UInt8]?] = [:]
        for (key, present) in rows {
            // A removed row goes whatever else the series keeps.
            guard present else {
                result[key] = .some(nil)
                continue
            }
            guard let last = newest[key.series] else { continue }
            if key.day <= last - Self.keptDays {
                result[key] = .some(nil)
            } else if let change = changed[key] {
                // A kept day whose row this write did not encode (its newest day lost its
                // samples) loses its stored row; its summary holds its figures.
                result[key] = .some(change.row)
            }
        }
        return result
    }

    /// The keys of the rows `days` holds of the series with changed rows, found by a few
    /// lookups however many other series the store holds: a series keeps the rows of the
    /// ``keptDays`` days up to its newest day with a row, which its newest hour summary
    /// names (`hours` is keyed series first). A row this misses (one a write of another rule
    /// left) stays, its figures still its day's; the row of a day the write changes is
    /// replaced or removed whatever this finds.
    private func storedRows(in txn: borrowing WriteTransaction) throws -> [DayRowKey] {
        var keys: [DayRowKey] = []
        for (series, kind) in kinds {
            guard let newest = try hours.newestDay(series: series, kind: kind, in: txn),
                newest > .min + Self.keptDays
            else { continue }
            for day in oldestKeptDay(newestDay: newest)...newest {
                let key = DayRowKey(series: series, day: day)
                if try days.withRow(forKey: key, in: txn, { _ in true }) == true {
                    keys.append(key)
                }
            }
        }
        return keys
    }

    /// Rebuilds the hour rows holding the changed days with each day's new segment.
    private func storeSummaries(in txn: borrowing WriteTransaction) throws {
        // The new segment (or none) of each day, by hour row.
        var segments: [[UInt8]: (kind: SeriesKind, days: [UInt8: [UInt8]?])] = [:]
        for (key, change) in changed {
            guard let kind = kinds[key.series] else { continue }
            let (rowKey, offset) = HourSummaryCodec.location(
                ofDay: key.day, series: key.series, kind: kind)
            segments[rowKey, default: (kind, [:])].days[offset] = .some(change.segment)
        }
        var hourRows: [[UInt8]: [UInt8]?] = [:]
        for (rowKey, update) in segments {
            var kept =
                try hours.withRow(forKey: rowKey, in: txn) {
                    HourSummaryCodec.segments(of: $0, kind: update.kind)
                } ?? [:]
            for (offset, segment) in update.days { kept[offset] = segment }
            hourRows[rowKey] = HourSummaryCodec.row(
                kind: update.kind, segments: kept.sorted { $0.key < $1.key }.map(\.value))
        }
        try hours.store(hourRows, in: txn)
    }
}
