/// A source of a series as the `sources` database holds it (format 4): the stream of
/// samples one device or app wrote to one series.
///
/// Its samples are blocks under their own id (``streamID``) in `blocks`, so a source's
/// name costs nothing per sample. The default source (no name) of a series needs no record:
/// its blocks are under the series' own id, as every sample of a store of an earlier format.
///
/// Layout: the longest duration written by the source (8 bytes, little-endian), then the
/// name's UTF-8 bytes (NFC, at most 255).
struct SourceRecord: Equatable, Sendable {
    /// The source's name (NFC); empty for the default source.
    let name: String
    /// The id its blocks are keyed by: the series' own for the default source.
    let streamID: UInt32
    /// The longest duration this source has written, in ms.
    var maximumDuration: Int64

    /// The value stored for the record.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 8 + name.utf8.count)
        writer.appendLittleEndian(maximumDuration)
        writer.append(contentsOf: name.utf8)
        return writer.bytes
    }

    /// The record stored under stream id `streamID`, or `nil` when its bytes are not one.
    init?(streamID: UInt32, bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        guard let longest = try? reader.readLittleEndian(Int64.self), longest >= 0,
            bytes.count - reader.offset <= SourceName.maximumByteCount
        else { return nil }
        self.init(
            name: String(decoding: bytes[reader.offset...], as: UTF8.self), streamID: streamID,
            maximumDuration: longest)
    }

    init(name: String, streamID: UInt32, maximumDuration: Int64) {
        self.name = name
        self.streamID = streamID
        self.maximumDuration = maximumDuration
    }

    /// The series record through which this source's blocks are read and written: `series`
    /// with this source's stream id and longest duration.
    func stream(of series: SeriesRecord) -> SeriesRecord {
        SeriesRecord(
            id: streamID, name: series.name, unit: series.unit, kind: series.kind,
            maximumDuration: maximumDuration, createdAt: series.createdAt)
    }
}
