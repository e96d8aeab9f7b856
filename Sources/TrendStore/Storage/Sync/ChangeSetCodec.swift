/// The bytes of a change set (``ChangeSet/encoded()``): versioned, checked, compressed as
/// the store's blocks are.
///
/// Layout: `TSCS`, the version (1), a flags byte (0), then the body, then the CRC-32C of
/// everything before it (4 bytes, little-endian). The body: the anchor (the store's 16 bytes,
/// the position as a varint); the declarations (a varint count; each the series' name, its
/// unit, its kind as a byte: 0 cumulative, 1 discrete); the priority orders and the
/// deletions (a varint count each, as the change log keeps them); the written samples (a
/// varint count of groups; each the series' and the source's names, then its samples as
/// blocks of at most ``samplesPerBlock``, a varint count and each block's length and bytes
/// (``BlockCodec``), then the versions, deflated: the origins (a count and 16 bytes each) and
/// runs of equal versions, each its length, the clock's difference from the run before
/// (zig-zag) and the origin's index, as varints). Names are a 2-byte length and UTF-8.
///
/// Version 2, written only for a set that carries sample ids (so that a release reading
/// version 1 reads every other set): each written group ends with its ids, a varint length
/// (0: none) and per sample a varint byte count (0: no id) and the id's bytes; deletions may
/// be by id (``SampleDeletion``'s flag 4).
enum ChangeSetCodec {
    static let magic: [UInt8] = Array("TSCS".utf8)
    /// The newest version this code reads and writes.
    static let version: UInt8 = 2
    /// The most samples one block of a change set holds.
    static let samplesPerBlock = 8_192

    static func encode(_ changes: ChangeSet, zlib: ZlibCodec) throws -> [UInt8] {
        let carriesIDs =
            changes.written.contains { !$0.ids.isEmpty }
            || changes.deletions.contains { $0.sample != nil }
        var writer = ByteWriter(capacity: 256)
        writer.append(contentsOf: magic)
        writer.append(carriesIDs ? 2 : 1)
        writer.append(0)
        writer.append(contentsOf: changes.anchor.store.bytes)
        writer.appendVarint(changes.anchor.position)
        writer.appendVarint(UInt64(changes.declarations.count))
        for declaration in changes.declarations {
            writer.appendName(declaration.series)
            writer.appendName(declaration.unit)
            writer.append(declaration.kind == .discrete ? 1 : 0)
        }
        writer.appendVarint(UInt64(changes.priorities.count))
        for change in changes.priorities { change.encode(into: &writer) }
        writer.appendVarint(UInt64(changes.deletions.count))
        for deletion in changes.deletions { deletion.encode(into: &writer) }
        writer.appendVarint(UInt64(changes.written.count))
        for written in changes.written {
            writer.appendName(written.series)
            writer.appendName(written.source)
            let blocks = stride(from: 0, to: written.samples.count, by: samplesPerBlock).map {
                written.samples[$0..<min($0 + samplesPerBlock, written.samples.count)]
            }
            writer.appendVarint(UInt64(blocks.count))
            for block in blocks {
                let bytes = try BlockCodec.encode(block, zlib: zlib)
                writer.appendVarint(UInt64(bytes.count))
                writer.append(contentsOf: bytes)
            }
            let versions = try DeflatedBytes.pack(encodeVersions(written.versions), zlib: zlib)
            writer.appendVarint(UInt64(versions.count))
            writer.append(contentsOf: versions)
            if carriesIDs {
                var ids = ByteWriter(capacity: 17 * written.ids.count)
                for id in written.ids {
                    ids.appendVarint(UInt64(id?.bytes.count ?? 0))
                    ids.append(contentsOf: id?.bytes ?? [])
                }
                writer.appendVarint(UInt64(ids.bytes.count))
                writer.append(contentsOf: ids.bytes)
            }
        }
        return writer.checksummed()
    }

    /// The change set in `bytes`.
    ///
    /// - Throws: ``StoreError/Code/damagedChangeSet`` for bytes that are not one.
    static func decode(_ bytes: UnsafeRawBufferPointer, zlib: ZlibCodec) throws(StoreError)
        -> ChangeSet
    {
        guard bytes.count >= 10, bytes[0..<4].elementsEqual(magic) else {
            throw .damagedChangeSet(reason: "no change set header")
        }
        guard (1...version).contains(bytes[4]), bytes[5] == 0 else {
            throw .damagedChangeSet(
                reason:
                    "version \(bytes[4]) (flags \(bytes[5])); this release reads versions 1 to \(version)"
            )
        }
        guard let (body, checksum) = bytes.splittingTrailingChecksum(),
            CRC32C.checksum(body) == checksum
        else { throw .damagedChangeSet(reason: "checksum mismatch (damaged or truncated)") }
        var reader = ByteReader(body, offset: 6)
        do {
            return try decodeBody(&reader, carriesIDs: bytes[4] >= 2, zlib: zlib)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .damagedChangeSet(reason: "malformed at byte \(reader.offset): \(error)")
        }
    }

    private static func decodeBody(
        _ reader: inout ByteReader, carriesIDs: Bool, zlib: ZlibCodec
    ) throws -> ChangeSet {
        let store = try reader.readStoreID()
        let anchor = ChangeAnchor(store: store, position: try reader.readVarint())
        var declarations: [ChangeSet.Declaration] = []
        for _ in 0..<(try count(&reader)) {
            let series = try reader.readName()
            let unit = try reader.readName()
            let kind = try reader.readByte()
            guard kind <= 1 else { throw DeflatedBytes.Damage(description: "unknown kind \(kind)") }
            declarations.append(
                ChangeSet.Declaration(
                    series: series, unit: unit, kind: kind == 1 ? .discrete : .cumulative))
        }
        var priorities: [PriorityChange] = []
        for _ in 0..<(try count(&reader)) { priorities.append(try PriorityChange(from: &reader)) }
        var deletions: [SampleDeletion] = []
        for _ in 0..<(try count(&reader)) {
            let deletion = try SampleDeletion(from: &reader)
            guard carriesIDs || deletion.sample == nil else {
                throw DeflatedBytes.Damage(description: "a deletion by id in a version-1 set")
            }
            deletions.append(deletion)
        }
        var written: [ChangeSet.Written] = []
        for _ in 0..<(try count(&reader)) {
            let series = try reader.readName()
            let source = try reader.readName()
            var samples: [Sample] = []
            for _ in 0..<(try count(&reader)) {
                let length = try count(&reader)
                try reader.withBytes(length) {
                    try BlockCodec.decode($0, zlib: zlib, appendingTo: &samples)
                }
            }
            let length = try count(&reader)
            let versions = try reader.withBytes(length) {
                try decodeVersions(try DeflatedBytes.unpack($0, zlib: zlib), count: samples.count)
            }
            var ids: [SampleID?] = []
            if carriesIDs {
                let length = try count(&reader)
                if length > 0 {
                    guard
                        let section = try reader.withBytes(
                            length, { try ByteReader.idSection($0, count: samples.count) })
                    else { throw DeflatedBytes.Damage(description: "ids disagree with samples") }
                    ids = section
                }
            }
            written.append(
                ChangeSet.Written(
                    series: series, source: source, samples: samples, versions: versions,
                    ids: ids))
        }
        guard reader.remaining == 0 else {
            throw DeflatedBytes.Damage(
                description: "\(reader.remaining) bytes after the change set")
        }
        return ChangeSet(
            anchor: anchor, declarations: declarations, written: written, deletions: deletions,
            priorities: priorities)
    }

    /// A count no larger than the bytes left could hold (each counted thing takes one).
    private static func count(_ reader: inout ByteReader) throws -> Int {
        let value = try reader.readVarint()
        guard value <= UInt64(reader.remaining) else {
            throw DeflatedBytes.Damage(description: "a count of \(value) past the end")
        }
        return Int(value)
    }

    private static func encodeVersions(_ versions: [ChangeVersion]) -> [UInt8] {
        var origins: [StoreID: Int] = [:]
        var list: [StoreID] = []
        for version in versions where origins[version.origin] == nil {
            origins[version.origin] = list.count
            list.append(version.origin)
        }
        var writer = ByteWriter(capacity: 16 * list.count + 16)
        writer.appendVarint(UInt64(list.count))
        for origin in list { writer.append(contentsOf: origin.bytes) }
        var previous: UInt64 = 0
        var index = 0
        while index < versions.count {
            var end = index + 1
            while end < versions.count && versions[end] == versions[index] { end += 1 }
            writer.appendVarint(UInt64(end - index))
            writer.appendZigZag(Int64(bitPattern: versions[index].clock &- previous))
            writer.appendVarint(UInt64(origins[versions[index].origin] ?? 0))
            previous = versions[index].clock
            index = end
        }
        return writer.bytes
    }

    private static func decodeVersions(_ bytes: [UInt8], count: Int) throws -> [ChangeVersion] {
        try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let origins = try reader.readOrigins()
            var versions: [ChangeVersion] = []
            versions.reserveCapacity(count)
            var clock: UInt64 = 0
            while reader.remaining > 0 {
                let length = try reader.readVarint()
                clock &+= UInt64(bitPattern: try reader.readZigZag())
                let origin = try reader.readVarint()
                guard length > 0, length <= UInt64(count - versions.count),
                    origin < UInt64(origins.count)
                else { throw DeflatedBytes.Damage(description: "versions disagree with samples") }
                versions += repeatElement(
                    ChangeVersion(clock: clock, origin: origins[Int(origin)]), count: Int(length))
            }
            guard versions.count == count else {
                throw DeflatedBytes.Damage(
                    description: "\(versions.count) versions for \(count) samples")
            }
            return versions
        }
    }
}
