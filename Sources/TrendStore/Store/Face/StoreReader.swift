import Foundation

/// What answers queries of a store's committed state: the store itself, each call reading
/// the state committed when it begins, and a ``StoreSnapshot``, every call reading the same
/// state.
///
/// Every query (today's curve, weekday averages, heatmaps, interval statistics, samples,
/// sources) is declared once, on this protocol, and reached the same way from both:
///
/// ```swift
/// let today = try store.todayCurve(of: "activeEnergy")
/// let (curve, mondays) = try store.read { snapshot in
///     (try snapshot.todayCurve(of: "activeEnergy"),
///      try snapshot.weekdayAverage(of: "activeEnergy", weekday: .monday))
/// }
/// ```
///
/// The package's two types conform; a host uses them, and does not conform its own.
public protocol StoreReader: ~Copyable {
    /// Runs `body` with one consistent snapshot of the store: a store begins one for the
    /// call, a snapshot passes itself.
    ///
    /// - Warning: Keep `body` short and synchronous: a long-lived read transaction keeps
    ///   the pages it sees from being reused, so the file grows while it runs.
    func read<R>(_ body: (borrowing StoreSnapshot) throws -> R) throws -> R
}

extension TrendStore: StoreReader {}

extension StoreSnapshot: StoreReader {
    /// Runs `body` with this snapshot: a read inside a read sees the same state.
    public func read<R>(_ body: (borrowing StoreSnapshot) throws -> R) throws -> R {
        try body(self)
    }
}
