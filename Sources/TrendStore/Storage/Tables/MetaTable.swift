import Foundation
import LMDB

/// What `meta` records of a store's settings (FORMAT.md), each `nil` where it records none.
struct StoredSettings: Equatable, Sendable {
    /// `storage-format`.
    var format: UInt32?
    /// The format a development build before 1.0 recorded (`format-version`), 1 for the
    /// earliest, which recorded only its `chunk-window-ms`; `nil` for a store of 1.0 or later.
    var developmentFormat: UInt32?
    /// `time-zone`: the identifier of the store's default zone.
    var zoneIdentifier: String?
    /// `rollup-grid`: the name of the rollup grid.
    var grid: String?
    /// `hour-phase-ms`: where summary hours begin after each UTC hour, in milliseconds.
    var hourPhase: Int64?
    /// `incomplete-copy`: the store is a backup that was stopped before it finished.
    var isIncompleteCopy = false
}

/// The `meta` records that stay in the clear in an encrypted store, so it can be opened.
struct EncryptionRecords: Equatable, Sendable {
    /// `encryption`: the cipher's name (``ValueSealer/cipherName``).
    var cipher: String
    /// `key-derivation`: how a passphrase becomes the key, with the store's salt; `nil` for a
    /// store created with a key of 32 bytes.
    var derivation: [UInt8]?
    /// `seal-id`: the random id every value's associated data names (format 7, ``StoreSeal``);
    /// `nil` in a store of an earlier format.
    var sealID: [UInt8]?
}

/// The `meta` database: the store's settings, its applied migrations, the next series id
/// and each series' change count, under the keys FORMAT.md lists.
///
/// In an encrypted store every record but the format, the encryption records and the
/// key-check record is sealed: `plain` reads and writes those, `table` the others.
struct MetaTable: Sendable {
    private let table: RawTable
    /// The records kept in the clear (``clearKeys``), unsealed in every store.
    let plain: RawTable
    /// The database's name.
    static let name = "meta"

    private static let formatKey = Array("storage-format".utf8)
    private static let zoneKey = Array("time-zone".utf8)
    private static let gridKey = Array("rollup-grid".utf8)
    private static let phaseKey = Array("hour-phase-ms".utf8)
    private static let migrationsKey = Array("migrations".utf8)
    private static let nextSeriesKey = Array("next-series-id".utf8)
    private static let developmentFormatKey = Array("format-version".utf8)
    private static let developmentWindowKey = Array("chunk-window-ms".utf8)
    private static let encryptionKey = Array("encryption".utf8)
    private static let derivationKey = Array("key-derivation".utf8)
    private static let keyCheckKey = Array("key-check".utf8)
    private static let incompleteCopyKey = Array("incomplete-copy".utf8)
    private static let blockRewriteKey = Array("block-rewrite-position".utf8)
    static let commitStampKey = Array("commit-stamp".utf8)
    /// What the key-check record seals.
    private static let keyCheckText = Array("trendstore-key-check".utf8)

    /// The underlying database, for tests that inspect or damage stored bytes (the layer
    /// check keeps every other file from naming it).
    var database: Database { table.database }

    /// Opens the table in `environment`.
    init(in environment: Environment) throws {
        table = try RawTable(named: Self.name, in: environment)
        plain = table
    }

    private init(table: RawTable, plain: RawTable) {
        self.table = table
        self.plain = plain
    }

    /// The same table with its sealed records sealed by `sealer` (none: a plain store).
    func sealed(by sealer: ValueSealer?) -> MetaTable {
        MetaTable(table: plain.sealed(by: sealer), plain: plain)
    }

    /// The encryption records, `nil` in a plain store.
    func encryptionRecords<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> EncryptionRecords?
    {
        guard let cipher = try plain.value(forKey: Self.encryptionKey, in: txn) else { return nil }
        return EncryptionRecords(
            cipher: String(decoding: cipher, as: UTF8.self),
            derivation: try plain.value(forKey: Self.derivationKey, in: txn),
            sealID: try plain.value(forKey: Self.sealIDKey, in: txn))
    }

    /// Records a new store's encryption and its key-check record, sealed by this table's sealer.
    func recordEncryption(_ records: EncryptionRecords, in txn: borrowing WriteTransaction) throws {
        try plain.put(Array(records.cipher.utf8), forKey: Self.encryptionKey, in: txn)
        if let derivation = records.derivation {
            try plain.put(derivation, forKey: Self.derivationKey, in: txn)
        }
        if let sealID = records.sealID { try recordSealID(sealID, in: txn) }
        try table.put(Self.keyCheckText, forKey: Self.keyCheckKey, in: txn)
    }

    /// The keys of the records kept in the clear: an encrypted store's format, encryption,
    /// key-derivation and seal-id records, a development build's format records, the mark of
    /// a copy not yet finished, and the commit stamp.
    static let clearKeys: Set<[UInt8]> = [
        formatKey, encryptionKey, derivationKey, sealIDKey, developmentFormatKey,
        developmentWindowKey, incompleteCopyKey, commitStampKey,
    ]

    /// The table of the sealed records (every record in a plain store), for copies between
    /// stores (``StoreTables/copyEntries(from:to:in:)``), which skip ``clearKeys``.
    var sealedRecords: RawTable { table }

    /// The sealed records that do not open (none in a plain store).
    func unopenableValues<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SealedValueDamage]
    {
        try table.unopenableValues(in: txn, clear: Self.clearKeys)
    }

    /// Marks the store as a copy being written (``StoredSettings/isIncompleteCopy``), or
    /// removes the mark when the copy is complete.
    func markIncompleteCopy(_ incomplete: Bool, in txn: borrowing WriteTransaction) throws {
        if incomplete {
            try plain.put([1], forKey: Self.incompleteCopyKey, in: txn)
        } else {
            try plain.delete(forKey: Self.incompleteCopyKey, in: txn)
        }
    }

    /// Whether the key-check record opens with this table's sealer and holds what it should.
    func keyChecks<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> Bool {
        do {
            return try table.withValue(forKey: Self.keyCheckKey, in: txn) {
                $0.elementsEqual(Self.keyCheckText)
            } ?? false
        } catch is SealedValueDamage {
            return false
        }
    }

    /// The settings `meta` records.
    ///
    /// - Throws: ``StoreError/Code/incompatibleFormat`` for a setting of the wrong width.
    func settings<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> StoredSettings
    {
        var settings = try formatSettings(in: txn)
        settings.zoneIdentifier = try string(Self.zoneKey, in: txn)
        settings.grid = try string(Self.gridKey, in: txn)
        settings.hourPhase = try fixedWidth(
            Self.phaseKey, Int64.self, "hour phase", from: table, in: txn)
        return settings
    }

    /// The format settings alone (`format`, `developmentFormat`): those an encrypted store
    /// keeps in the clear.
    ///
    /// - Throws: ``StoreError/Code/incompatibleFormat`` for a format of the wrong width.
    func formatSettings<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> StoredSettings
    {
        var settings = StoredSettings()
        settings.format = try fixedWidth(
            Self.formatKey, UInt32.self, "storage format", from: plain, in: txn)
        if let bytes = try plain.value(forKey: Self.developmentFormatKey, in: txn) {
            settings.developmentFormat =
                bytes.count == 4
                ? bytes.withUnsafeBytes { $0.littleEndian(at: 0, as: UInt32.self) }
                : 1
        } else if try plain.value(forKey: Self.developmentWindowKey, in: txn) != nil {
            settings.developmentFormat = 1
        }
        settings.isIncompleteCopy = try plain.value(forKey: Self.incompleteCopyKey, in: txn) != nil
        return settings
    }

    /// Records a new store's format, default zone, rollup grid and hour phase.
    func recordNewStore(
        format: UInt32, zoneIdentifier: String, grid: String, hourPhase: Int64,
        in txn: borrowing WriteTransaction
    ) throws {
        try recordFormat(format, in: txn)
        try table.put(Array(grid.utf8), forKey: Self.gridKey, in: txn)
        try table.put(
            withUnsafeBytes(of: hourPhase.littleEndian, Array.init), forKey: Self.phaseKey,
            in: txn)
        try setZoneIdentifier(zoneIdentifier, in: txn)
    }

    /// Records the storage format.
    func recordFormat(_ format: UInt32, in txn: borrowing WriteTransaction) throws {
        try plain.put(
            withUnsafeBytes(of: format.littleEndian, Array.init), forKey: Self.formatKey, in: txn)
    }

    /// Records `identifier` as the store's default zone.
    func setZoneIdentifier(_ identifier: String, in txn: borrowing WriteTransaction) throws {
        try table.put(Array(identifier.utf8), forKey: Self.zoneKey, in: txn)
    }

    /// The identifiers of the applied migrations, in the order they ran.
    func appliedMigrations<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [String]
    {
        try string(Self.migrationsKey, in: txn).map {
            $0.split(separator: "\n").map(String.init)
        } ?? []
    }

    /// Records the applied migrations.
    func setAppliedMigrations(_ identifiers: [String], in txn: borrowing WriteTransaction)
        throws
    {
        try table.put(
            Array(identifiers.joined(separator: "\n").utf8), forKey: Self.migrationsKey, in: txn)
    }

    /// Where the rewrite of layout-1 blocks resumes (a series id and a block's first start),
    /// or `nil`: from the first block. A record of another width is read as `nil`.
    func blockRewritePosition<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> (series: UInt32, firstStart: Int64)?
    {
        try table.withValue(forKey: Self.blockRewriteKey, in: txn) { bytes in
            bytes.count == 12
                ? (
                    bytes.littleEndian(at: 0, as: UInt32.self),
                    bytes.littleEndian(at: 4, as: Int64.self)
                )
                : nil
        } ?? nil
    }

    /// Records where the rewrite of layout-1 blocks resumes; `nil` removes the record.
    func setBlockRewritePosition(
        _ position: (series: UInt32, firstStart: Int64)?, in txn: borrowing WriteTransaction
    ) throws {
        guard let position else {
            _ = try table.delete(forKey: Self.blockRewriteKey, in: txn)
            return
        }
        try table.put(
            withUnsafeBytes(of: position.series.littleEndian, Array.init)
                + withUnsafeBytes(of: position.firstStart.littleEndian, Array.init),
            forKey: Self.blockRewriteKey, in: txn)
    }

    /// The id the next new series gets.
    func nextSeriesID<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws -> UInt32 {
        let stored: UInt32?? = try table.withValue(forKey: Self.nextSeriesKey, in: txn) { bytes in
            bytes.count == 4 ? bytes.littleEndian(at: 0, as: UInt32.self) : nil
        }
        return stored.flatMap { $0 } ?? 1
    }

    /// Records the id the next new series gets.
    func setNextSeriesID(_ id: UInt32, in txn: borrowing WriteTransaction) throws {
        try table.put(
            withUnsafeBytes(of: id.littleEndian, Array.init), forKey: Self.nextSeriesKey, in: txn)
    }

    /// How many committed writes changed the samples of series `id` (0 when none did).
    func changeCount<T: ReadableTransaction & ~Copyable>(ofSeries id: UInt32, in txn: borrowing T)
        throws -> UInt64
    {
        let stored: UInt64?? = try table.withValue(forKey: Self.changeCountKey(id), in: txn) {
            bytes in
            bytes.count == 8 ? bytes.littleEndian(at: 0, as: UInt64.self) : nil
        }
        return stored.flatMap { $0 } ?? 0
    }

    /// Records the change count of series `id`.
    func setChangeCount(
        _ count: UInt64, ofSeries id: UInt32, in txn: borrowing WriteTransaction
    ) throws {
        try table.put(
            withUnsafeBytes(of: count.littleEndian, Array.init), forKey: Self.changeCountKey(id),
            in: txn)
    }

    private static func changeCountKey(_ id: UInt32) -> [UInt8] {
        Array("changes/".utf8) + withUnsafeBytes(of: id.bigEndian, Array.init)
    }

    private func string<T: ReadableTransaction & ~Copyable>(
        _ key: [UInt8], in txn: borrowing T
    ) throws -> String? {
        try table.withValue(forKey: key, in: txn) { String(decoding: $0, as: UTF8.self) }
    }

    /// The fixed-width integer under `key`, or `nil`; a value of another width is refused.
    private func fixedWidth<T: ReadableTransaction & ~Copyable, I: FixedWidthInteger>(
        _ key: [UInt8], _: I.Type, _ name: String, from table: RawTable, in txn: borrowing T
    ) throws -> I? {
        try table.withValue(forKey: key, in: txn) { bytes in
            guard bytes.count == MemoryLayout<I>.size else {
                throw StoreError.incompatibleFormat(
                    "\(name) of \(bytes.count) bytes in meta instead of \(MemoryLayout<I>.size)")
            }
            return bytes.littleEndian(at: 0, as: I.self)
        }
    }
}
