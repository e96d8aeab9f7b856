import LMDB

/// The integrity check's reading of the records of sample versions that name no identity.
extension SyncTable {
    /// A day of a stream whose record of versions names no identity (layout 4).
    struct WholeDayRecord {
        /// The UTC day.
        let day: Int64
        /// The record's version, position and count.
        let wholeDay: DayVersions.WholeDay
        /// The entries later commits laid over it, in position order.
        var laidOver = DayVersions()
    }

    /// Every stream's days whose base record is of layout 4, in day order, with what later
    /// records lay over each: one walk over the base records and one over the later ones,
    /// whatever the number of streams. A record that does not decode is left out (the
    /// change log's own check reports it).
    func wholeDayRecords<T: ReadableTransaction & ~Copyable>(
        zlib: ZlibCodec, in txn: borrowing T
    ) throws -> [UInt32: [WholeDayRecord]] {
        // Keys sort by stream, then day: each stream's days come in order.
        var byStream: [UInt32: [WholeDayRecord]] = [:]
        try forEachDayRecord(of: .dayVersions, in: txn) { day, value in
            if let wholeDay = try? DayVersions.wholeDay(in: value) {
                byStream[day.stream, default: []].append(
                    WholeDayRecord(day: day.day, wholeDay: wholeDay))
            }
        }
        guard !byStream.isEmpty else { return [:] }
        try forEachDayRecord(of: .versionDelta, in: txn) { day, value in
            // The stream's days are not kept in a local, so the change below is made in place.
            guard let index = byStream[day.stream]?.index(ofDay: day.day),
                let added = try? DayVersions(bytes: value, zlib: zlib)
            else { return }
            byStream[day.stream]?[index].laidOver.record(sorted: added.entries)
        }
        return byStream
    }

    /// Calls `body` with the stream and day of each record of `kind` (`0x02` or `0x06`, whose
    /// keys begin `kind ‖ stream id ‖ day`) and its value, in key order.
    private func forEachDayRecord<T: ReadableTransaction & ~Copyable>(
        of kind: Kind, in txn: borrowing T,
        _ body: (StreamDay, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try table.forEach(from: [kind.rawValue], in: txn) { key, value in
            guard key.first == kind.rawValue else { return false }
            guard key.count >= 13 else { return true }
            try body(Self.streamDay(ofKey: key), value)
            return true
        }
    }
}

extension [SyncTable.WholeDayRecord] {
    /// The index of the record of UTC day `day` among these records (sorted by day), if any.
    func index(ofDay day: Int64) -> Int? {
        let index = partitioningIndex { $0.day >= day }
        return index < count && self[index].day == day ? index : nil
    }
}
