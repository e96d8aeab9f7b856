/// What the change log remembers of one source's samples of one UTC day (format 5, the
/// `sync` database): for every sample written since format 5, its identity (start, end),
/// the ``ChangeVersion`` of its last write and the feed position of the commit that made it.
///
/// A write or an applied change set brings the record of each day it touched up to date;
/// ``TrendStore/changes(since:)`` reads back the identities with a later position, and an
/// applied change set compares its versions with these. Layout (then deflated,
/// ``DeflatedBytes``): the number of origins and each origin's 16 bytes; the number of
/// entries; per entry, in (start, end) order, zig-zag varints of the start's difference from
/// the previous start, the duration, the clock's difference from the previous clock, the
/// position's difference from the previous position, then the origin's index as a varint.
struct DayVersions: Equatable, Sendable {
    /// One remembered sample.
    struct Entry: Equatable, Sendable {
        var start: Int64
        var end: Int64
        var version: ChangeVersion
        var position: UInt64
    }

    /// The entries, sorted by (start, end), identities unique.
    private(set) var entries: [Entry] = []

    init() {}

    /// The version recorded for the sample `(start, end)`, if any.
    func version(start: Int64, end: Int64) -> ChangeVersion? {
        index(start: start, end: end).found.map { entries[$0].version }
    }

    /// Records `version` and `position` for the sample `(start, end)`.
    mutating func record(start: Int64, end: Int64, version: ChangeVersion, position: UInt64) {
        let entry = Entry(start: start, end: end, version: version, position: position)
        let (found, insertion) = index(start: start, end: end)
        if let found { entries[found] = entry } else { entries.insert(entry, at: insertion) }
    }

    /// Records `incoming` (sorted by (start, end)) in one merge.
    mutating func record(sorted incoming: [Entry]) {
        guard !entries.isEmpty else {
            entries = incoming
            return
        }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + incoming.count)
        var old = 0
        var new = 0
        while old < entries.count || new < incoming.count {
            if new == incoming.count {
                merged.append(entries[old]); old += 1
            } else if old == entries.count || Self.precedes(incoming[new], entries[old]) {
                merged.append(incoming[new]); new += 1
            } else if Self.precedes(entries[old], incoming[new]) {
                merged.append(entries[old]); old += 1
            } else {
                merged.append(incoming[new]); old += 1; new += 1
            }
        }
        entries = merged
    }

    /// The entries committed after `position`.
    func entries(after position: UInt64) -> [Entry] {
        entries.filter { $0.position > position }
    }

    private static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }

    private func index(start: Int64, end: Int64) -> (found: Int?, insertion: Int) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if (entries[middle].start, entries[middle].end) < (start, end) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let found = low < entries.count && entries[low].start == start && entries[low].end == end
        return (found ? low : nil, low)
    }

    // MARK: Bytes

    /// The stored bytes.
    func encoded(zlib: ZlibCodec) throws -> [UInt8] {
        var origins: [StoreID: Int] = [:]
        var originList: [StoreID] = []
        for entry in entries where origins[entry.version.origin] == nil {
            origins[entry.version.origin] = originList.count
            originList.append(entry.version.origin)
        }
        var writer = ByteWriter(capacity: 16 * originList.count + 8 * entries.count + 8)
        writer.appendVarint(UInt64(originList.count))
        for origin in originList { writer.append(contentsOf: origin.bytes) }
        writer.appendVarint(UInt64(entries.count))
        var previous = Entry(start: 0, end: 0, version: .unrecorded, position: 0)
        for entry in entries {
            writer.appendZigZag(entry.start &- previous.start)
            writer.appendZigZag(entry.end &- entry.start)
            writer.appendZigZag(Int64(bitPattern: entry.version.clock &- previous.version.clock))
            writer.appendZigZag(Int64(bitPattern: entry.position &- previous.position))
            writer.appendVarint(UInt64(origins[entry.version.origin] ?? 0))
            previous = entry
        }
        return try DeflatedBytes.pack(writer.bytes, zlib: zlib)
    }

    /// The record in `bytes`.
    ///
    /// - Throws: ``DeflatedBytes/Damage`` when they are not one.
    init(bytes: UnsafeRawBufferPointer, zlib: ZlibCodec) throws(DeflatedBytes.Damage) {
        let plain = try DeflatedBytes.unpack(bytes, zlib: zlib)
        guard let entries = plain.withUnsafeBytes({ Self.entries(in: $0) }) else {
            throw DeflatedBytes.Damage(description: "not a record of sample versions")
        }
        self.entries = entries
    }

    /// The entries the inflated bytes `raw` hold, or `nil` when they are not a record.
    private static func entries(in raw: UnsafeRawBufferPointer) -> [Entry]? {
        var reader = ByteReader(raw)
        guard let originCount = try? reader.readVarint(), originCount <= UInt64(raw.count / 16)
        else { return nil }
        var origins: [StoreID] = []
        for _ in 0..<originCount {
            guard let origin = try? reader.readStoreID() else { return nil }
            origins.append(origin)
        }
        guard let count = try? reader.readVarint(), count <= UInt64(raw.count) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var previous = Entry(start: 0, end: 0, version: .unrecorded, position: 0)
        for _ in 0..<count {
            guard let startStep = try? reader.readZigZag(), let duration = try? reader.readZigZag(),
                let clockStep = try? reader.readZigZag(),
                let positionStep = try? reader.readZigZag(),
                let origin = try? reader.readVarint(), origin < UInt64(origins.count)
            else { return nil }
            let start = previous.start &+ startStep
            let entry = Entry(
                start: start, end: start &+ duration,
                version: ChangeVersion(
                    clock: previous.version.clock &+ UInt64(bitPattern: clockStep),
                    origin: origins[Int(origin)]),
                position: previous.position &+ UInt64(bitPattern: positionStep))
            if let last = entries.last, !precedes(last, entry) { return nil }
            entries.append(entry)
            previous = entry
        }
        return reader.remaining == 0 ? entries : nil
    }
}
