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
/// Every changed row's day gets its summary (``DayHours``) rebuilt from the row's bytes in
/// the same transaction, so the `hours` database never disagrees with `days`. A store of
/// the hour grid (``RollupGrid/hour``) keeps the rows of only the two newest days of each
/// series (``keptDays``), so writes as samples arrive update a row in place; older rows are
/// removed once summarised, and a write into such a day rebuilds its row from the samples.
final class RowWrites {
    private let days: DayRowTable
    private let hours: HourSummaryTable
    /// New bytes of each changed row, or `nil` for a removed row.
    private var changed: [[UInt8]: [UInt8]?] = [:]
    /// The kind of each series with changed rows.
    private var kinds: [UInt32: SeriesKind] = [:]
    /// Whether every row is stored (a store of the quarter-hour grid) or only the newest.
    let storesRows: Bool
    /// Where the summaries' hours begin within UTC hours.
    private let phase: HourPhase
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
        forKey key: [UInt8], in txn: borrowing WriteTransaction,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        if let pending = changed[key] {
            return try pending.map { try $0.withUnsafeBytes(body) }
        }
        return try days.withRow(forKey: key, in: txn, body)
    }

    /// Whether the day of the row `key`, which ``withRow(forKey:in:_:)`` did not find, may
    /// still hold samples: not every row is kept (the hour grid) and the day has an hour
    /// summary. A write into such a day rebuilds its row from the samples.
    func mayHoldSamples(
        withoutRow key: [UInt8], kind: SeriesKind, in txn: borrowing WriteTransaction
    )
        throws -> Bool
    {
        guard !storesRows, let (series, day) = key.withUnsafeBytes(StorageKey.parseDayRow) else {
            return false
        }
        let (rowKey, offset) = HourSummaryCodec.location(ofDay: day, series: series, kind: kind)
        return try hours.withRow(forKey: rowKey, in: txn) {
            HourSummaryCodec.segments(of: $0, kind: kind)[offset] != nil
        } ?? false
    }

    /// Records `row` (or the removal of the row, when `nil`) of a series of `kind` under `key`.
    func set(_ row: [UInt8]?, forKey key: [UInt8], kind: SeriesKind) {
        changed[key] = .some(row)
        if let parsed = key.withUnsafeBytes(StorageKey.parseDayRow) {
            kinds[parsed.series] = kind
        }
    }

    /// Stores every change in key order, then the hour summaries of the changed days.
    func flush(in txn: borrowing WriteTransaction) throws {
        defer {
            changed.removeAll()
            kinds.removeAll()
        }
        if storesRows {
            if !changed.isEmpty { try days.store(changed, in: txn) }
        } else {
            try days.store(try newestRows(in: txn), in: txn)
        }
        try storeSummaries(of: changed, in: txn)
    }

    /// The puts and deletions that leave `days` holding, of each series with changed rows,
    /// the rows of its ``keptDays`` newest days with rows (a store of the hour grid keeps
    /// few rows, so all are read).
    private func newestRows(in txn: borrowing WriteTransaction) throws -> [[UInt8]: [UInt8]?] {
        var rows: [[UInt8]: Bool] = [:]
        for key in try days.allKeys(in: txn) { rows[key] = true }
        for (key, row) in changed { rows[key] = row != nil }
        var newest: [UInt32: Int64] = [:]
        for (key, present) in rows where present {
            guard let (series, day) = key.withUnsafeBytes(StorageKey.parseDayRow),
                kinds[series] != nil
            else { continue }
            newest[series] = max(newest[series] ?? .min, day)
        }
        var result: [[UInt8]: [UInt8]?] = [:]
        for (key, present) in rows {
            // A removed row goes whatever else the series keeps.
            guard present else {
                result[key] = .some(nil)
                continue
            }
            guard let (series, day) = key.withUnsafeBytes(StorageKey.parseDayRow),
                let last = newest[series]
            else { continue }
            if day <= last - Self.keptDays {
                result[key] = .some(nil)
            } else if let row = changed[key] {
                result[key] = row
            }
        }
        return result
    }

    /// Rebuilds the hour rows holding the days of `rows`: each day's segment from its row.
    private func storeSummaries(of rows: [[UInt8]: [UInt8]?], in txn: borrowing WriteTransaction)
        throws
    {
        // The new segment (or none) of each day, by hour row.
        var segments: [[UInt8]: (kind: SeriesKind, days: [UInt8: [UInt8]?])] = [:]
        for (key, row) in rows {
            guard let (series, day) = key.withUnsafeBytes(StorageKey.parseDayRow),
                let kind = kinds[series]
            else { continue }
            let segment = try row.flatMap { row in
                try row.withUnsafeBytes { bytes in
                    try HourSummaryCodec.segment(
                        DayHours.build(fromRow: bytes, day: day, phase: phase), day: day,
                        series: series)
                }
            }
            let (rowKey, offset) = HourSummaryCodec.location(
                ofDay: day, series: series, kind: kind)
            segments[rowKey, default: (kind, [:])].days[offset] = .some(segment)
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
