/// A record of sample versions that names no identity (layout 4, format 9): every sample its
/// source holds on its day has the one version and position it stores.
///
/// A commit that writes a day's every sample at one version (an import's day, a change set's
/// day from one commit elsewhere) would otherwise store the day's identities twice, in the
/// sample blocks and in the record. Layout 4 is layout 2 with the byte 4, exactly one run (its
/// length the day's sample count when written), and no identities: a reader takes them from
/// the day's samples in the blocks (``SyncTable/dayVersions(_:zlib:after:daySamples:in:)``).
/// Records laid over it in later commits name the samples written since, with their own
/// versions, so a sample added to the day later reads its own version, not this one. A
/// sample leaving the day would take its version with it: a deletion first lists the
/// record's identities (``SyncTable/listWholeDayVersions(ofStream:starts:daySamples:zlib:in:)``).
extension DayVersions {
    /// The one version and position of a record of layout 4.
    struct WholeDay: Equatable, Sendable {
        var version: ChangeVersion
        var position: UInt64
        /// How many samples the day held when the record was written (its one run's length).
        var count: Int
    }

    /// The version and position every entry shares (and how many entries), when they all
    /// share one and none has an id (a record that layout 4 could store, given the day holds
    /// exactly its samples).
    var sharedVersion: WholeDay? {
        guard let first = entries.first else { return nil }
        for entry in entries
        where entry.version != first.version || entry.position != first.position
            || entry.id != nil
        {
            return nil
        }
        return WholeDay(version: first.version, position: first.position, count: entries.count)
    }

    /// Whether the entries' identities are exactly `samples`' (sorted by start, then end).
    func namesExactly(_ samples: [Sample]) -> Bool {
        guard samples.count == entries.count else { return false }
        for (entry, sample) in zip(entries, samples)
        where entry.start != sample.startMilliseconds || entry.end != sample.endMilliseconds {
            return false
        }
        return true
    }

    /// The record giving every one of `identities` (a day's samples, sorted) `wholeDay`'s
    /// version and position.
    init(_ wholeDay: WholeDay, identities: [Sample]) {
        self.init(
            sorted: identities.map {
                Entry(
                    start: $0.startMilliseconds, end: $0.endMilliseconds,
                    version: wholeDay.version, position: wholeDay.position)
            })
    }

    /// The bytes of layout 4 for a record whose entries all share one version and position
    /// and carry no id.
    func encodedAsWholeDay() -> [UInt8] {
        guard let shared = sharedVersion else { return [] }
        var writer = ByteWriter(capacity: 40)
        writer.append(Self.wholeDayLayout)
        writer.appendVarint(1)
        writer.append(contentsOf: shared.version.origin.bytes)
        writer.appendVarint(1)
        writer.appendVarint(UInt64(entries.count))
        writer.appendZigZag(Int64(bitPattern: shared.version.clock))
        writer.appendZigZag(Int64(bitPattern: shared.position))
        writer.appendVarint(0)
        return writer.checksummed()
    }

    /// The first byte of a record of layout 4.
    static let wholeDayLayout: UInt8 = 4

    /// The version and position of a record of layout 4; `nil` for the other layouts.
    ///
    /// - Throws: ``DeflatedBytes/Damage`` when the bytes begin as layout 4 but are not one.
    static func wholeDay(in raw: UnsafeRawBufferPointer) throws(DeflatedBytes.Damage)
        -> WholeDay?
    {
        guard raw.first == wholeDayLayout else { return nil }
        guard let (body, checksum) = raw.splittingTrailingChecksum(),
            CRC32C.checksum(body) == checksum
        else { throw DeflatedBytes.Damage(description: "not a record of sample versions") }
        var reader = ByteReader(body, offset: 1)
        guard let origins = try? reader.readOrigins(), origins.count == 1,
            let runs = try? reader.readVarint(), runs == 1,
            let length = try? reader.readVarint(), length > 0, length <= UInt64(Int32.max),
            let clock = try? reader.readZigZag(), let position = try? reader.readZigZag(),
            let origin = try? reader.readVarint(), origin == 0, reader.remaining == 0
        else { throw DeflatedBytes.Damage(description: "not a record of sample versions") }
        return WholeDay(
            version: ChangeVersion(clock: UInt64(bitPattern: clock), origin: origins[0]),
            position: UInt64(bitPattern: position), count: Int(length))
    }
}
