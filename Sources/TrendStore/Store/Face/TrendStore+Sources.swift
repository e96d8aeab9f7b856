import Foundation

/// Sources: the devices and apps that write a series (<doc:Sources>).
extension TrendStore {
    /// Sets the order in which the sources of `series` count where their samples overlap,
    /// highest first. It may name sources not written yet; sources it leaves out rank
    /// below those it names, by the default order (<doc:Sources>); an empty order restores
    /// the default.
    ///
    /// The transaction that stores the order invalidates the series' cached aggregates and
    /// wakes its observers; from its commit every query answers under the new order. The
    /// series' rollups are then rebuilt in batches of days, each its own transaction, before
    /// this returns; a rebuild a kill interrupts is finished at the next writable open.
    ///
    /// - Throws: ``StoreError/Code/unknownSeries``;
    ///   ``StoreError/Code/invalidArgument(_:)`` for a name longer than 255 bytes or named
    ///   twice.
    public func setSourcePriority(_ order: [String], for series: String) throws {
        try engine.setSourcePriority(order, of: series)
    }
}
