import Foundation
import LMDB

/// The settings a store records in `meta`: format, default time zone, rollup grid and hour
/// phase.
struct StoreSettings {
    /// The default zone the store records.
    let storedTimeZone: TimeZone
    /// The grid the store's rollups resolve, fixed when it was created.
    let rollupGrid: RollupGrid
    /// Where the hour summaries begin within UTC hours, fixed when the store was created.
    let hourPhase: HourPhase
    /// Seals and opens the store's values when it is encrypted.
    var sealer: ValueSealer?
    /// `meta`, its records sealed by `sealer`.
    var meta: MetaTable?

    /// What a new store is created with when `meta` records nothing yet.
    struct NewStore {
        /// The zone a new store records (`nil`: the system's).
        var zone: TimeZone?
        /// The grid a new store records (`nil`: the one its zone suits).
        var grid: RollupGrid?
        /// Whether a copy marked incomplete opens (``StoreOptions/opensIncompleteCopy``).
        var opensIncompleteCopy = false
    }

    /// Reads the settings, writing them first when the store is new.
    ///
    /// A new store records ``StorageFormat/current``, `newStore.zone` (or the system's zone)
    /// as its default and `newStore.grid` (or the grid that zone suits,
    /// ``RollupGrid/suited(to:)``) as its rollup grid, and with the hour grid the phase of
    /// that zone's local hours (``HourPhase/init(localHoursOf:)``, UTC hours when they have
    /// none), all in one transaction; an existing store keeps the zone, grid and phase it
    /// recorded: opening, in any zone, never changes them (only an explicit call changes the
    /// default zone).
    ///
    /// Only a store being made (`creating`, in the private directory of ``NewStoreFiles``)
    /// records new settings; an existing data file without them is damage. Two processes
    /// making one store at once each make their own file, and the one linked into place
    /// first is the store both then open, so every process works with the settings it
    /// records.
    ///
    /// An encrypted store's key is checked against its key-check record before any sealed
    /// record is read; a new store created with a key (``StoreOptions/encryptionKey``)
    /// records its encryption in the same transaction as its settings.
    ///
    /// - Throws: ``StoreError/Code/incompatibleFormat`` for a store of a development build, of
    ///   an unknown format, or whose settings are unreadable;
    ///   ``StoreError/Code/storage`` with `MDB_CORRUPTED` for an
    ///   existing data file without settings; the key errors of
    ///   ``StoreEncryption/sealer(for:options:path:)`` and
    ///   ``StoreError/Code/wrongEncryptionKey``.
    static func load(
        environment: Environment, meta: MetaTable, options: StoreOptions, path: String,
        creating: Bool
    ) throws -> StoreSettings {
        let newStore = NewStore(
            zone: options.timeZone, grid: options.rollupGrid,
            opensIncompleteCopy: options.opensIncompleteCopy)
        /// The settings of a store that records its format, read in `txn`.
        func existing<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
            -> StoreSettings?
        {
            let plain = try meta.formatSettings(in: txn)
            guard plain.developmentFormat == nil, plain.format != nil else { return nil }
            let records = try meta.encryptionRecords(in: txn)
            if let records, records.sealID == nil, let format = plain.format,
                format >= StorageFormat.storeBoundSealing
            {
                throw StoreError.storage(
                    path: path, operation: "open", code: LMDBError.Code.corrupted.rawValue,
                    reason:
                        "an encrypted store of format \(format) without its seal-id record: it is damaged; run trendstore verify, then restore a backup"
                )
            }
            let sealer = try StoreEncryption.sealer(for: records, options: options, path: path)
            let sealed = meta.sealed(by: sealer)
            if sealer != nil, try !sealed.keyChecks(in: txn) {
                throw StoreError.wrongEncryptionKey(path: path)
            }
            var settings = try decide(try sealed.settings(in: txn), newStore: newStore)
            settings.sealer = sealer
            settings.meta = sealed
            return settings
        }
        let found = try Transactions.read(in: environment) {
            txn -> (StoreSettings?, StoredSettings) in
            try meta.checkCommitStamp(
                format: try meta.formatSettings(in: txn).format, in: txn, path: path)
            if let settings = try existing(in: txn) { return (settings, StoredSettings()) }
            // A store without a format (or of a development build) has no sealed records.
            return (nil, try meta.settings(in: txn))
        }
        if let settings = found.0 { return settings }
        if found.1.developmentFormat != nil { return try decide(found.1, newStore: newStore) }
        // A new store's data file appears with its settings (``NewStoreFiles``): one
        // without them lost them, and writing new ones would hide that.
        guard creating else {
            throw StoreError.storage(
                path: path, operation: "open", code: LMDBError.Code.corrupted.rawValue,
                reason:
                    "its data file holds no store settings: it is damaged (or not a TrendStore store) and is left as it is; run trendstore verify, then restore a backup"
            )
        }
        return try Transactions.write(in: environment) { txn in
            if let settings = try existing(in: txn) { return settings }
            var settings = try decide(try meta.settings(in: txn), newStore: newStore)
            let encryption = try StoreEncryption.newStore(options: options)
            let sealed = meta.sealed(by: encryption?.1)
            if let (records, _) = encryption { try sealed.recordEncryption(records, in: txn) }
            try sealed.recordNewStore(
                format: StorageFormat.current,
                zoneIdentifier: settings.storedTimeZone.identifier,
                grid: settings.rollupGrid.rawValue, hourPhase: settings.hourPhase.offset,
                in: txn)
            settings.sealer = encryption?.1
            settings.meta = sealed
            return settings
        }
    }

    /// The settings of a store that records `recorded`, choosing for a new store from `newStore`.
    private static func decide(_ recorded: StoredSettings, newStore: NewStore) throws
        -> StoreSettings
    {
        if recorded.isIncompleteCopy && !newStore.opensIncompleteCopy {
            throw StoreError.incompatibleFormat(
                "an incomplete copy: its backup was stopped before it finished; delete it and back up again"
            )
        }
        if let development = recorded.developmentFormat {
            throw StoreError.incompatibleFormat(
                "this store was written by a development build of TrendStore (format "
                    + "\(development)); export it with that build and import it again")
        }
        guard let format = recorded.format else {
            let zone = newStore.zone ?? TimeZone.current
            let grid = newStore.grid ?? .suited(to: zone)
            return StoreSettings(
                storedTimeZone: zone, rollupGrid: grid,
                hourPhase: grid == .hour ? HourPhase(localHoursOf: zone) ?? .utc : .utc)
        }
        guard StorageFormat.readable.contains(format) else {
            throw StoreError.incompatibleFormat(
                "storage format \(format); this TrendStore reads formats "
                    + "\(StorageFormat.readable.lowerBound) to \(StorageFormat.readable.upperBound)"
            )
        }
        guard let zoneName = recorded.zoneIdentifier, let gridName = recorded.grid,
            let phaseMilliseconds = recorded.hourPhase
        else {
            throw StoreError.incompatibleFormat(
                "storage format \(format) without its time zone, rollup grid or hour phase in meta")
        }
        // A zone this system's time zone database does not know (a newer one's) falls back
        // like a handle opened without one.
        let zone = TimeZone(identifier: zoneName) ?? newStore.zone ?? TimeZone.current
        guard let grid = RollupGrid(rawValue: gridName) else {
            throw StoreError.incompatibleFormat("unknown rollup grid \"\(gridName)\"")
        }
        guard let phase = HourPhase(milliseconds: phaseMilliseconds), phase == .utc || grid == .hour
        else {
            throw StoreError.incompatibleFormat(
                "hour phase of \(phaseMilliseconds) ms in a store of the \(grid.rawValue) grid")
        }
        return StoreSettings(storedTimeZone: zone, rollupGrid: grid, hourPhase: phase)
    }
}
