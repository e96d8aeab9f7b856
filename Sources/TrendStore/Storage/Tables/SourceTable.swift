import LMDB

/// The `sources` database (format 4): each series' sources and its priority order, keyed
/// `seriesID ‖ index` (``StorageKey/make(series:index:)``): at index −1 the priority order,
/// at −2 (format 6) the days whose rows a priority change has yet to rebuild, at a
/// source's stream id its ``SourceRecord``.
///
/// The priority order is a list of names, each its UTF-8 length (2 bytes, little-endian)
/// and bytes; the days to rebuild are the next day and the day after the last (UTC day
/// numbers, 8 bytes each, little-endian). Keys hold ids only, so no source name is stored
/// outside a (sealed) value.
struct SourceTable: SeriesOwnedTable {
    private let keyed: SeriesKeyedTable
    /// The database's name.
    static let name = "sources"
    /// The index of a series' priority order.
    private static let priorityIndex: Int64 = -1
    /// The index of a series' days left to rebuild.
    private static let rebuildIndex: Int64 = -2

    /// Opens the table in `environment`, its values sealed by `sealer` (none: plain).
    init(in environment: Environment, sealer: ValueSealer?) throws {
        keyed = SeriesKeyedTable(
            table: try RawTable(named: Self.name, in: environment, sealer: sealer))
    }

    /// The sources of series `id` that have records (every one but the default), in stream
    /// id order; a record that cannot be read is damage.
    func sources<T: ReadableTransaction & ~Copyable>(of id: UInt32, in txn: borrowing T) throws
        -> [SourceRecord]
    {
        var found: [SourceRecord] = []
        var damaged: Int64?
        try keyed.forEach(series: id, from: 0, in: txn) { index, value in
            guard index <= Int64(UInt32.max),
                let record = SourceRecord(streamID: UInt32(index), bytes: value)
            else {
                damaged = index
                return false
            }
            found.append(record)
            return true
        }
        if let damaged {
            throw StoreError.damagedRecord(
                table: Self.name, record: "series \(id), stream \(damaged)",
                reason: "not a source record")
        }
        return found
    }

    /// Stores `record` as a source of series `id`.
    func put(_ record: SourceRecord, of id: UInt32, in txn: borrowing WriteTransaction) throws {
        try keyed.put(record.encoded(), series: id, index: Int64(record.streamID), in: txn)
    }

    /// The priority order of series `id`, highest first; empty when none was set.
    func priority<T: ReadableTransaction & ~Copyable>(of id: UInt32, in txn: borrowing T) throws
        -> [String]
    {
        let names = try keyed.withValue(series: id, index: Self.priorityIndex, in: txn) {
            bytes -> [String]? in
            var reader = ByteReader(bytes)
            var names: [String] = []
            while reader.offset < bytes.count {
                guard let length = try? reader.readLittleEndian(UInt16.self),
                    Int(length) <= SourceName.maximumByteCount,
                    reader.offset + Int(length) <= bytes.count
                else { return nil }
                names.append(
                    String(
                        decoding: bytes[reader.offset..<reader.offset + Int(length)],
                        as: UTF8.self))
                reader = ByteReader(bytes, offset: reader.offset + Int(length))
            }
            return names
        }
        switch names {
        case .none: return []
        case .some(.none):
            throw StoreError.damagedRecord(
                table: Self.name, record: "series \(id), priority",
                reason: "not a list of source names")
        case .some(.some(let names)): return names
        }
    }

    /// Stores `names` as the priority order of series `id` (none: removes it).
    func setPriority(_ names: [String], of id: UInt32, in txn: borrowing WriteTransaction) throws {
        guard !names.isEmpty else {
            try keyed.delete(series: id, index: Self.priorityIndex, in: txn)
            return
        }
        var writer = ByteWriter(capacity: names.reduce(0) { $0 + 2 + $1.utf8.count })
        for name in names {
            writer.appendLittleEndian(UInt16(name.utf8.count))
            writer.append(contentsOf: name.utf8)
        }
        try keyed.put(writer.bytes, series: id, index: Self.priorityIndex, in: txn)
    }

    /// The UTC days of series `id` whose rows a priority change has yet to rebuild, from
    /// the next; `nil` when no rebuild is under way.
    func pendingRebuild<T: ReadableTransaction & ~Copyable>(of id: UInt32, in txn: borrowing T)
        throws -> Range<Int64>?
    {
        let days = try keyed.withValue(series: id, index: Self.rebuildIndex, in: txn) {
            bytes -> Range<Int64>? in
            var reader = ByteReader(bytes)
            guard bytes.count == 16, let next = try? reader.readLittleEndian(Int64.self),
                let end = try? reader.readLittleEndian(Int64.self), next <= end
            else { return nil }
            return next..<end
        }
        switch days {
        case .none: return nil
        case .some(.none):
            throw StoreError.damagedRecord(
                table: Self.name, record: "series \(id), rebuild",
                reason: "not a range of days")
        case .some(.some(let days)): return days
        }
    }

    /// Stores `days` as the days of series `id` left to rebuild (`nil`: none).
    func setPendingRebuild(
        _ days: Range<Int64>?, of id: UInt32, in txn: borrowing WriteTransaction
    ) throws {
        guard let days else {
            try keyed.delete(series: id, index: Self.rebuildIndex, in: txn)
            return
        }
        var writer = ByteWriter(capacity: 16)
        writer.appendLittleEndian(days.lowerBound)
        writer.appendLittleEndian(days.upperBound)
        try keyed.put(writer.bytes, series: id, index: Self.rebuildIndex, in: txn)
    }

    /// The ids of the series with a rebuild under way, in id order (a walk of keys).
    func seriesWithPendingRebuilds<T: ReadableTransaction & ~Copyable>(in txn: borrowing T)
        throws -> [UInt32]
    {
        var found: [UInt32] = []
        try keyed.table.forEach(
            from: [], in: txn,
            visit: { key in
                StorageKey.parse(key)?.index == Self.rebuildIndex ? .read : .skip
            }
        ) { key, _ in
            if let series = StorageKey.parse(key)?.series { found.append(series) }
        }
        return found
    }

    /// Removes every source record, the priority order and the pending rebuild of series `id`.
    func removeAll(of id: UInt32, in txn: borrowing WriteTransaction) throws {
        try keyed.removeAll(series: id, in: txn)
    }

    /// The table underneath, for copies between stores (``StoreTables/copyEntries(from:to:in:)``).
    var raw: RawTable { keyed.table }
}
