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

    private static let windowKey = Array("chunk-window-ms".utf8)
    static let zoneKey = Array("time-zone".utf8)

    /// Reads the settings, writing them first when the store is new.
    ///
    /// A new store records `newStoreZone` (or the system's zone) as its default and
    /// `newStoreGrid` (or the grid that zone suits, ``RollupGrid/suited(to:)``) as its
    /// rollup grid, and with the hour grid the phase of that zone's local hours
    /// (``HourPhase/init(localHoursOf:)``, UTC hours when they have none); an existing store
    /// keeps the zone, grid and phase it recorded: opening never changes them (SPEC §4).
    ///
    /// A new store records ``StorageFormat/current``.
    ///
    /// - Throws: ``StoreError/incompatibleFormat(_:)`` for a store of an unknown format version
    ///   or grid, or of a phase it cannot have.
    static func load(
        environment: Environment, meta: Database, newStoreZone: TimeZone?,
        newStoreGrid: RollupGrid?, defaultWindow: Int64
    ) throws -> StoreSettings {
        let stored = try environment.read {
            txn -> (UInt32?, Int64?, String?, String?, Int64?) in
            let version = try StorageFormat.stored(meta: meta, in: txn)
            let window = try txn.value(forKey: windowKey, in: meta).map {
                Int64(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
            }
            let zone = try txn.value(forKey: zoneKey, in: meta).map {
                String(decoding: $0, as: UTF8.self)
            }
            return (
                version, window, zone, try StorageFormat.storedGrid(meta: meta, in: txn),
                try StorageFormat.storedHourPhase(meta: meta, in: txn)
            )
        }
        if let version = stored.0, !StorageFormat.readable.contains(version) {
            throw StoreError.incompatibleFormat(
                "format version \(version); this TrendStore reads versions "
                    + "\(StorageFormat.readable.lowerBound)…\(StorageFormat.readable.upperBound)")
        }
        let window = stored.1 ?? defaultWindow
        guard window > 0, window % TimeGrid.day == 0 else {
            throw StoreError.incompatibleFormat(
                "chunk window of \(window) ms is not a whole number of days")
        }
        let recorded = stored.2.flatMap(TimeZone.init(identifier:))
        let zone = recorded ?? newStoreZone ?? TimeZone.current
        let grid: RollupGrid
        if let name = stored.3 {
            guard let recordedGrid = RollupGrid(rawValue: name) else {
                throw StoreError.incompatibleFormat("unknown rollup grid \"\(name)\"")
            }
            grid = recordedGrid
        } else if let version = stored.0, version >= StorageFormat.recordsGrid {
            throw StoreError.incompatibleFormat(
                "format version \(version) without its rollup grid in meta")
        } else {
            grid = stored.0 == nil ? newStoreGrid ?? .suited(to: zone) : .quarterHour
        }
        let phase = try hourPhase(
            recorded: stored.4, version: stored.0, grid: grid, newStoreZone: zone)
        let needsWrite = stored.0 == nil || stored.1 == nil || recorded == nil
        if needsWrite && !environment.options.readOnly {
            try environment.write { txn in
                if stored.0 == nil {
                    try StorageFormat.record(StorageFormat.current, meta: meta, in: txn)
                    try StorageFormat.recordGrid(grid, meta: meta, in: txn)
                    try StorageFormat.recordHourPhase(phase, meta: meta, in: txn)
                }
                try txn.put(
                    withUnsafeBytes(of: window.littleEndian, Array.init), forKey: windowKey,
                    in: meta)
                try txn.put(Array(zone.identifier.utf8), forKey: zoneKey, in: meta)
            }
        }
        return StoreSettings(
            chunkWindow: window, storedTimeZone: zone, rollupGrid: grid, hourPhase: phase,
            isNew: stored.0 == nil)
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
