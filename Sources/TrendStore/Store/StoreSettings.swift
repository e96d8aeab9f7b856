import Foundation
import LMDB

/// The settings a store records in `meta`: format version, chunk window, default time zone,
/// rollup grid and hour phase.
struct StoreSettings {
    let chunkWindow: Int64
    /// The default zone the store records.
    let storedTimeZone: TimeZone
    /// The grid the store's rollups resolve, fixed when it was created.
    let rollupGrid: RollupGrid
    /// Where the hour summaries begin within UTC hours, fixed when the store was created.
    let hourPhase: HourPhase
    /// Whether the store recorded no format before: this open creates it.
    let isNew: Bool

    static let windowKey = Array("chunk-window-ms".utf8)
    static let zoneKey = Array("time-zone".utf8)

    /// What a new store is created with when `meta` records nothing yet.
    struct NewStore {
        /// The zone a new store records (`nil`: the system's).
        var zone: TimeZone?
        /// The grid a new store records (`nil`: the one its zone suits).
        var grid: RollupGrid?
        /// The chunk window a store records when it records none.
        var window: Int64
    }

    /// Reads the settings, writing them first when the store is new.
    ///
    /// A new store records `newStore.zone` (or the system's zone) as its default and
    /// `newStore.grid` (or the grid that zone suits, ``RollupGrid/suited(to:)``) as its
    /// rollup grid, and with the hour grid the phase of that zone's local hours
    /// (``HourPhase/init(localHoursOf:)``, UTC hours when they have none); an existing store
    /// keeps the zone, grid and phase it recorded: opening never changes them (SPEC §4).
    ///
    /// What a new store records is decided in the write transaction that records it, from
    /// what that transaction reads: when two processes create one store at once, the second
    /// finds the first one's settings there and uses them, so every process works with the
    /// settings the store records.
    ///
    /// A new store records ``StorageFormat/current``.
    ///
    /// - Throws: ``StoreError/incompatibleFormat(_:)`` for a store of an unknown format version
    ///   or grid, or of a phase it cannot have.
    static func load(environment: Environment, meta: Database, newStore: NewStore) throws
        -> StoreSettings
    {
        let found = try environment.read { txn in try RecordedSettings(meta: meta, in: txn) }
        if environment.options.readOnly || found.isComplete {
            return try decide(found, newStore: newStore)
        }
        return try environment.write { txn in
            let recorded = try RecordedSettings(meta: meta, in: txn)
            let settings = try decide(recorded, newStore: newStore)
            if recorded.version == nil {
                try StorageFormat.record(StorageFormat.current, meta: meta, in: txn)
                try StorageFormat.recordGrid(settings.rollupGrid, meta: meta, in: txn)
                try StorageFormat.recordHourPhase(settings.hourPhase, meta: meta, in: txn)
            }
            if recorded.window == nil {
                try txn.put(
                    withUnsafeBytes(of: settings.chunkWindow.littleEndian, Array.init),
                    forKey: windowKey, in: meta)
            }
            if recorded.zone == nil {
                try txn.put(
                    Array(settings.storedTimeZone.identifier.utf8), forKey: zoneKey, in: meta)
            }
            return settings
        }
    }

    /// The settings of a store that records `recorded`, choosing for a new store from `newStore`.
    private static func decide(_ recorded: RecordedSettings, newStore: NewStore) throws
        -> StoreSettings
    {
        if let version = recorded.version, !StorageFormat.readable.contains(version) {
            throw StoreError.incompatibleFormat(
                "format version \(version); this TrendStore reads versions "
                    + "\(StorageFormat.readable.lowerBound)…\(StorageFormat.readable.upperBound)")
        }
        let window = recorded.window ?? newStore.window
        guard window > 0, window % TimeGrid.day == 0 else {
            throw StoreError.incompatibleFormat(
                "chunk window of \(window) ms is not a whole number of days")
        }
        let zone =
            recorded.zone.flatMap(TimeZone.init(identifier:)) ?? newStore.zone ?? TimeZone.current
        let grid: RollupGrid
        if let name = recorded.grid {
            guard let recordedGrid = RollupGrid(rawValue: name) else {
                throw StoreError.incompatibleFormat("unknown rollup grid \"\(name)\"")
            }
            grid = recordedGrid
        } else if let version = recorded.version, version >= StorageFormat.recordsGrid {
            throw StoreError.incompatibleFormat(
                "format version \(version) without its rollup grid in meta")
        } else {
            grid = recorded.version == nil ? newStore.grid ?? .suited(to: zone) : .quarterHour
        }
        let phase = try hourPhase(
            recorded: recorded.hourPhase, version: recorded.version, grid: grid,
            newStoreZone: zone)
        return StoreSettings(
            chunkWindow: window, storedTimeZone: zone, rollupGrid: grid, hourPhase: phase,
            isNew: recorded.version == nil)
    }

    /// The hour phase of a store of format `version` (`nil` for a new store in
    /// `newStoreZone`) and rollup grid `grid`, given what `meta` records.
    private static func hourPhase(
        recorded: Int64?, version: UInt32?, grid: RollupGrid, newStoreZone: TimeZone
    ) throws -> HourPhase {
        guard let version else {
            return grid == .hour ? HourPhase(localHoursOf: newStoreZone) ?? .utc : .utc
        }
        guard version >= StorageFormat.recordsHourPhase else { return .utc }
        guard let recorded else {
            throw StoreError.incompatibleFormat(
                "format version \(version) without its hour phase in meta")
        }
        guard let phase = HourPhase(milliseconds: recorded), phase == .utc || grid == .hour
        else {
            throw StoreError.incompatibleFormat(
                "hour phase of \(recorded) ms in a store of the \(grid.rawValue) grid")
        }
        return phase
    }
}

/// The settings as `meta` records them, each `nil` where it records none.
private struct RecordedSettings {
    let version: UInt32?
    let window: Int64?
    /// The identifier of the recorded default zone.
    let zone: String?
    /// The name of the recorded rollup grid.
    let grid: String?
    let hourPhase: Int64?

    /// Whether nothing is left to record: the store was created and its settings written.
    var isComplete: Bool { version != nil && window != nil && zone != nil }

    init<T: ReadableTransaction & ~Copyable>(meta: Database, in txn: borrowing T) throws {
        version = try StorageFormat.stored(meta: meta, in: txn)
        window = try txn.value(forKey: StoreSettings.windowKey, in: meta).map { bytes in
            guard bytes.count == 8 else {
                throw StoreError.incompatibleFormat(
                    "chunk window of \(bytes.count) bytes in meta instead of 8")
            }
            return Int64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
        }
        zone = try txn.value(forKey: StoreSettings.zoneKey, in: meta).map {
            String(decoding: $0, as: UTF8.self)
        }
        grid = try StorageFormat.storedGrid(meta: meta, in: txn)
        hourPhase = try StorageFormat.storedHourPhase(meta: meta, in: txn)
    }
}
