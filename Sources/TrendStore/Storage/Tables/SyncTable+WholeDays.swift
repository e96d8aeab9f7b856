import LMDB

/// The integrity check's reading of the records of sample versions that name no identity.
extension SyncTable {
    /// A day of a stream whose record of versions names no identity (layout 4).
    struct WholeDayRecord {
        /// The UTC day.
        let day: Int64
        /// The record's version, position and count.
        let wholeDay: DayVersions.WholeDay
        /// The entries later commits laid over it
        /// (``SyncTable/versionsOfPresentSamples(_:zlib:in:)``).
        let laidOver: DayVersions
    }

    /// The days of `stream` whose base record is of layout 4, in day order. A record that
    /// does not decode is left out (the change log's own check reports it).
    func wholeDayRecords<T: ReadableTransaction & ~Copyable>(
        ofStream stream: UInt32, zlib: ZlibCodec, in txn: borrowing T
    ) throws -> [WholeDayRecord] {
        let first = Self.key(StreamDay(stream: stream, day: .min))
        let prefix = first.prefix(5)
        var days: [Int64] = []
        try table.forEach(from: first, in: txn) { key, value in
            guard key.count == first.count, key.starts(with: prefix) else { return false }
            if value.first == DayVersions.wholeDayLayout {
                days.append(Int64(bitPattern: key.bigEndian(at: 5, as: UInt64.self) ^ 1 << 63))
            }
            return true
        }
        var records: [WholeDayRecord] = []
        for day in days {
            guard
                let versions = try? versionsOfPresentSamples(
                    StreamDay(stream: stream, day: day), zlib: zlib, in: txn),
                let wholeDay = versions.wholeDay
            else { continue }
            records.append(WholeDayRecord(day: day, wholeDay: wholeDay, laidOver: versions.listed))
        }
        return records
    }
}
