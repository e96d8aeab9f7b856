/// The bytes of a ``DayVersions`` record.
///
/// Layout 2, which this code writes: the byte 2; varints: the number of origins, then each
/// origin's 16 bytes; the number of runs of entries with one version and position, and per
/// run its length, the zig-zag differences of its clock and its position from the run
/// before, and its origin's index; then the entries' identities as one sample block
/// (``BlockCodec``, every value 0), which codes starts and durations as the store's blocks
/// do (a varint length of the block first); last, the CRC-32C of everything before it (4
/// bytes, little-endian). Layout 3, written when an entry has a ``SampleID``, is layout 2
/// with the byte 3 and, between the runs and the identities, the ids: a varint length of
/// the section, then per entry a varint byte count (0: no id) and the id's bytes. Layout 1 (development builds of format 5, read only): a varint length and a
/// zlib stream of varints (the origins; the number of entries; per entry the zig-zag
/// differences of its start from the previous start, its duration, its clock and position
/// from the previous entry's, and its origin's index); its first byte is at least 23, so the
/// layouts never meet. Layout 4 names no identities (`DayVersions+WholeDay.swift`).
extension DayVersions {
    /// The stored bytes (layout 3 when an entry has an id, else layout 2).
    func encoded(zlib: ZlibCodec) throws -> [UInt8] {
        var runs: [(length: Int, entry: Entry)] = []
        for entry in entries {
            if let last = runs.last, last.entry.version == entry.version,
                last.entry.position == entry.position
            {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((1, entry))
            }
        }
        // The origins in the order the entries first name them (looked up once a run).
        var origins: [StoreID: Int] = [:]
        var originList: [StoreID] = []
        for run in runs where origins[run.entry.version.origin] == nil {
            origins[run.entry.version.origin] = originList.count
            originList.append(run.entry.version.origin)
        }
        let hasIDs = entries.contains { $0.id != nil }
        var writer = ByteWriter(capacity: 16 * originList.count + 6 * runs.count + 16)
        writer.append(hasIDs ? 3 : 2)
        writer.appendVarint(UInt64(originList.count))
        for origin in originList { writer.append(contentsOf: origin.bytes) }
        writer.appendVarint(UInt64(runs.count))
        var previous = Entry(start: 0, end: 0, version: .unrecorded, position: 0)
        for run in runs {
            writer.appendVarint(UInt64(run.length))
            writer.appendZigZag(
                Int64(bitPattern: run.entry.version.clock &- previous.version.clock))
            writer.appendZigZag(Int64(bitPattern: run.entry.position &- previous.position))
            writer.appendVarint(UInt64(origins[run.entry.version.origin] ?? 0))
            previous = run.entry
        }
        if hasIDs {
            var ids = ByteWriter(capacity: 17 * entries.count)
            for entry in entries {
                ids.appendVarint(UInt64(entry.id?.bytes.count ?? 0))
                ids.append(contentsOf: entry.id?.bytes ?? [])
            }
            writer.appendVarint(UInt64(ids.bytes.count))
            writer.append(contentsOf: ids.bytes)
        }
        if !entries.isEmpty {
            let block = try BlockCodec.encode(
                entries.map {
                    Sample(startMilliseconds: $0.start, endMilliseconds: $0.end, value: 0)
                }[...],
                zlib: zlib)
            writer.appendVarint(UInt64(block.count))
            writer.append(contentsOf: block)
        }
        return writer.checksummed()
    }

    /// The record in `bytes`, of layout 1, 2 or 3 (layout 4 names its identities by the
    /// day's samples: ``wholeDay(in:)``).
    ///
    /// - Throws: ``DeflatedBytes/Damage`` when they are not one.
    init(bytes: UnsafeRawBufferPointer, zlib: ZlibCodec) throws(DeflatedBytes.Damage) {
        let entries: [Entry]?
        if bytes.first == Self.wholeDayLayout {
            throw DeflatedBytes.Damage(description: "a record of layout 4 lists no identities")
        } else if bytes.first == 2 || bytes.first == 3 {
            entries = Self.layoutTwoEntries(in: bytes, zlib: zlib)
        } else {
            let plain = try DeflatedBytes.unpack(bytes, zlib: zlib)
            entries = plain.withUnsafeBytes { Self.layoutOneEntries(in: $0) }
        }
        guard let entries else {
            throw DeflatedBytes.Damage(description: "not a record of sample versions")
        }
        self.init(sorted: entries)
    }

    /// The newest position a record of layout 2, 3 or 4 holds, read from its runs alone (the
    /// identities are not decoded); `nil` for layout 1 or bytes that are not a record.
    static func newestPosition(in raw: UnsafeRawBufferPointer) -> UInt64? {
        runTotals(in: raw)?.newestPosition
    }

    /// How many entries a record of layout 2 or 3 holds (of layout 4: its day's samples when
    /// written), read from its runs alone; `nil` for layout 1 or bytes that are not a record.
    static func entryCount(in raw: UnsafeRawBufferPointer) -> Int? {
        runTotals(in: raw)?.entries
    }

    /// The entries and the newest position of a record of layout 2, 3 or 4, summed over its
    /// runs.
    private static func runTotals(in raw: UnsafeRawBufferPointer)
        -> (entries: Int, newestPosition: UInt64)?
    {
        guard raw.first == 2 || raw.first == 3 || raw.first == wholeDayLayout else { return nil }
        var reader = ByteReader(raw, offset: 1)
        guard let originCount = try? reader.readVarint(), originCount <= UInt64(raw.count / 16),
            (try? reader.skip(Int(originCount) * 16)) != nil,
            let runCount = try? reader.readVarint(), runCount <= UInt64(raw.count)
        else { return nil }
        var position: UInt64 = 0
        var newest: UInt64 = 0
        var entries = 0
        for _ in 0..<runCount {
            guard let length = try? reader.readVarint(), length <= UInt64(Int32.max),
                (try? reader.readZigZag()) != nil, let step = try? reader.readZigZag(),
                (try? reader.skipVarint()) != nil
            else { return nil }
            entries &+= Int(length)
            position &+= UInt64(bitPattern: step)
            newest = max(newest, position)
        }
        return (entries, newest)
    }

    /// The entries of a record of layout 2 or 3 (`raw`'s first byte says which).
    private static func layoutTwoEntries(in raw: UnsafeRawBufferPointer, zlib: ZlibCodec)
        -> [Entry]?
    {
        guard let (body, checksum) = raw.splittingTrailingChecksum(),
            CRC32C.checksum(body) == checksum
        else { return nil }
        var reader = ByteReader(body, offset: 1)
        guard let origins = try? reader.readOrigins() else { return nil }
        guard let runCount = try? reader.readVarint(), runCount <= UInt64(raw.count) else {
            return nil
        }
        var runs: [(length: Int, version: ChangeVersion, position: UInt64)] = []
        var clock: UInt64 = 0
        var position: UInt64 = 0
        var total = 0
        for _ in 0..<runCount {
            guard let length = try? reader.readVarint(), length > 0,
                length <= UInt64(Int32.max) - UInt64(total),
                let clockStep = try? reader.readZigZag(),
                let positionStep = try? reader.readZigZag(),
                let origin = try? reader.readVarint(), origin < UInt64(origins.count)
            else { return nil }
            clock &+= UInt64(bitPattern: clockStep)
            position &+= UInt64(bitPattern: positionStep)
            runs.append(
                (Int(length), ChangeVersion(clock: clock, origin: origins[Int(origin)]), position))
            total += Int(length)
        }
        var ids: [SampleID?] = []
        if raw.first == 3 {
            guard let length = try? reader.readVarint(), length <= UInt64(reader.remaining),
                let section = try? reader.withBytes(
                    Int(length), { try ByteReader.idSection($0, count: total) })
            else { return nil }
            ids = section
        }
        var identities: [Sample] = []
        if total > 0 {
            guard let length = try? reader.readVarint(), length == UInt64(reader.remaining),
                (try? BlockCodec.decode(
                    UnsafeRawBufferPointer(rebasing: body[reader.offset...]), zlib: zlib,
                    appendingTo: &identities)) != nil
            else { return nil }
        } else if reader.remaining != 0 {
            return nil
        }
        guard identities.count == total else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(total)
        for run in runs {
            for _ in 0..<run.length {
                let identity = identities[entries.count]
                let entry = Entry(
                    start: identity.startMilliseconds, end: identity.endMilliseconds,
                    version: run.version, position: run.position,
                    id: ids.isEmpty ? nil : ids[entries.count])
                if let last = entries.last, !precedes(last, entry) { return nil }
                entries.append(entry)
            }
        }
        return entries
    }

    /// The entries of layout 1's inflated bytes `raw`, or `nil` when they are not a record.
    private static func layoutOneEntries(in raw: UnsafeRawBufferPointer) -> [Entry]? {
        var reader = ByteReader(raw)
        guard let origins = try? reader.readOrigins() else { return nil }
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

extension ByteReader {
    /// The ids of `count` entries in `section` (per entry a varint byte count, 0 for none,
    /// and the bytes); `nil` unless it holds exactly that many valid ids.
    static func idSection(_ section: UnsafeRawBufferPointer, count: Int) throws -> [SampleID?]? {
        // Each entry takes a byte at least: a count the bytes cannot hold reserves nothing.
        guard count <= section.count else { return nil }
        var reader = ByteReader(section)
        var ids: [SampleID?] = []
        ids.reserveCapacity(count)
        for _ in 0..<count {
            let length = try reader.readVarint()
            guard length <= UInt64(SampleID.maximumByteCount) else { return nil }
            if length == 0 {
                ids.append(nil)
                continue
            }
            var bytes: [UInt8] = []
            for _ in 0..<length { bytes.append(try reader.readByte()) }
            ids.append(SampleID(checking: bytes))
        }
        return reader.remaining == 0 ? ids : nil
    }
}
