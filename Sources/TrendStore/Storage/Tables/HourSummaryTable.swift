import LMDB

/// The `hours` database: hour-summary rows (``HourSummaryCodec``) keyed `seriesID ‖ group`.
struct HourSummaryTable: SeriesOwnedTable {
    private let keyed: SeriesKeyedTable
    /// The database's name.
    static let name = "hours"

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        keyed = SeriesKeyedTable(
            table: try RawTable(named: Self.name, in: environment, sealer: sealer))
    }

    /// Calls `body(group, row, owner)` with the stored row of series `id` for each of
    /// `groups` (sorted, unique) that it has, in order: one cursor walk over the rows when
    /// they are dense, a lookup per row when they are sparse (``WalkOrLookUp``). In an encrypted store `owner`
    /// holds the opened row: keep it to keep pointers into the row (in a plain store the row
    /// lies in the transaction's pages, and `owner` is `nil`).
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, groups: [Int64], in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer, OpenedPlaintext?) throws -> Void
    ) throws {
        guard let firstGroup = groups.first, let lastGroup = groups.last else { return }
        let table = keyed.table
        if WalkOrLookUp.walks(wanted: groups.count, span: Int(lastGroup - firstGroup + 1)) {
            try table.forEachKeeping(from: StorageKey.make(series: id, index: firstGroup), in: txn)
            {
                key, row, owner in
                guard let (series, group) = StorageKey.parse(key), series == id,
                    group <= lastGroup
                else { return false }
                try body(group, row, owner)
                return true
            }
        } else {
            for group in groups {
                _ = try table.withValueKeeping(
                    forKey: StorageKey.make(series: id, index: group), in: txn
                ) { try body(group, $0, $1) }
            }
        }
    }

    /// Calls `body(group, row)` for every row of series `id`, in order.
    func forEachRow<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, in txn: borrowing T,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try keyed.forEach(series: id, in: txn) { group, row in
            try body(group, row)
            return true
        }
    }

    /// The newest UTC day series `id` (of `kind`) has a summary of; `nil` when it has none.
    func newestDay<T: ReadableTransaction & ~Copyable>(
        series id: UInt32, kind: SeriesKind, in txn: borrowing T
    ) throws -> Int64? {
        guard let group = try keyed.lastIndex(series: id, in: txn),
            let offset = try keyed.table.withValue(
                forKey: StorageKey.make(series: id, index: group), in: txn,
                { HourSummaryCodec.segments(of: $0, kind: kind).keys.max() }) ?? nil
        else { return nil }
        // (A damaged key's index may be any number.)
        let start = group.multipliedReportingOverflow(by: HourSummaryCodec.daysPerRow(kind))
        let day = start.partialValue.addingReportingOverflow(Int64(offset))
        return start.overflow || day.overflow ? nil : day.partialValue
    }

    /// Calls `body` with the row under `key` (``StorageKey/make(series:index:)``); `nil`
    /// when there is none.
    func withRow<T: ReadableTransaction & ~Copyable, R>(
        forKey key: [UInt8], in txn: borrowing T, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try keyed.table.withValue(forKey: key, in: txn, body)
    }

    /// Puts (or, for `nil`, removes) each row by key, in key order (appending where it can).
    func store(_ rows: [[UInt8]: [UInt8]?], in txn: borrowing WriteTransaction) throws {
        try keyed.table.putInKeyOrder(rows, in: txn)
    }

    /// Removes every row of series `id`.
    func removeAll(series id: UInt32, in txn: borrowing WriteTransaction) throws {
        try keyed.removeAll(series: id, in: txn)
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { keyed.table }
}
