import Foundation

extension ChangeSet {
    /// The set as bytes to carry to another store: versioned, checksummed, its samples
    /// compressed as the store's blocks are. ``init(encoded:)`` reads them back.
    public func encoded() throws -> Data {
        Data(try ChangeSetCodec.encode(self, zlib: ZlibCodec()))
    }

    /// Reads a change set from bytes ``encoded()`` made.
    ///
    /// - Throws: ``StoreError/Code/damagedChangeSet`` for bytes that are damaged,
    ///   truncated, of a later version or sealed with a key; never traps, whatever the bytes.
    public init(encoded bytes: Data) throws {
        self = try bytes.withUnsafeBytes { bytes in
            if bytes.starts(with: Self.sealedMagic) {
                throw StoreError.damagedChangeSet(
                    reason: "sealed with a store's key: read it with init(encoded:key:)")
            }
            return try ChangeSetCodec.decode(bytes, zlib: ZlibCodec())
        }
    }

    /// How sealed change sets begin (`ChangeSet+Sealing.swift`).
    static let sealedMagic = Array("TSCE".utf8)

    /// The set split into parts that each encode to at most `maximumBytes` and hold at most
    /// `maximumRecords` records (a block of samples, a deletion or a priority order each):
    /// the defaults are CloudKit's limits for one request. Each part is a change set with the
    /// same anchor and the declarations it needs; applying them all, in any order, does what
    /// applying the whole set does. Samples are cut into blocks small enough to fit; only a
    /// single sample, deletion or priority order larger than `maximumBytes` makes a part of
    /// its own that does not.
    public func parts(maximumBytes: Int = 1_000_000, maximumRecords: Int = 400) throws
        -> [ChangeSet]
    {
        let zlib = ZlibCodec()
        let records = max(1, maximumRecords)
        var parts: [ChangeSet] = []
        var current = ChangeSet(anchor: anchor)
        var currentBytes = 0
        var currentRecords = 0
        func add(_ piece: ChangeSet) throws {
            let bytes = try ChangeSetCodec.encode(piece, zlib: zlib).count
            if currentRecords > 0
                && (currentBytes + bytes > maximumBytes || currentRecords + 1 > records)
            {
                parts.append(current)
                current = ChangeSet(anchor: anchor)
                currentBytes = 0
                currentRecords = 0
            }
            current.merge(piece)
            currentBytes += bytes
            currentRecords += 1
        }
        let declared = Dictionary(declarations.map { ($0.series, $0) }) { first, _ in first }
        for change in priorities {
            try add(
                ChangeSet(
                    anchor: anchor, declarations: declared[change.series].map { [$0] } ?? [],
                    priorities: [change]))
        }
        for deletion in deletions { try add(ChangeSet(anchor: anchor, deletions: [deletion])) }
        for group in written {
            let declaration = declared[group.series].map { [$0] } ?? []
            var start = 0
            var length = ChangeSetCodec.samplesPerBlock
            while start < group.samples.count {
                let end = min(start + length, group.samples.count)
                let piece = group.slice(start..<end)
                let part = ChangeSet(anchor: anchor, declarations: declaration, written: [piece])
                // A block too large for a part is cut in halves until it fits.
                if end - start > 1,
                    try ChangeSetCodec.encode(part, zlib: zlib).count > maximumBytes
                {
                    length = (end - start) / 2
                    continue
                }
                try add(part)
                start = end
            }
        }
        if currentRecords > 0 || parts.isEmpty { parts.append(current) }
        return parts
    }

    /// Adds `other`'s changes (of the same anchor) to this set's.
    private mutating func merge(_ other: ChangeSet) {
        for declaration in other.declarations where !declarations.contains(declaration) {
            declarations.append(declaration)
        }
        priorities += other.priorities
        deletions += other.deletions
        for piece in other.written {
            if let last = written.last, last.series == piece.series, last.source == piece.source {
                written[written.count - 1].append(contentsOf: piece)
            } else {
                written.append(piece)
            }
        }
    }
}
