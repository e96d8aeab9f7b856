import Foundation
import Synchronization

/// What the queries of one snapshot read: the series they named, whether one listed every
/// series, and whether one took its `now` from the store's clock. ``TrendStore/observe(every:_:)``
/// evaluates its query again only when a commit changed that region or the clock moved
/// to another local hour.
final class ReadRegion: Sendable {
    private struct State {
        var series: Set<String> = []
        var everySeries = false
        var clock = false
    }
    private let state = Mutex(State())

    /// Records that a query read `series` (a name as given; normalised here).
    func read(_ series: String) {
        let name = SeriesName.normalized(series)
        state.withLock { _ = $0.series.insert(name) }
    }

    /// Records that a query read each of `series`.
    func read(_ series: [String]) { for name in series { read(name) } }

    /// Records that a query listed every series.
    func readEverySeries() { state.withLock { $0.everySeries = true } }

    /// Records that a query took its `now` from the store's clock when `now` is `nil`.
    func readClock(unless now: Date?) {
        if now == nil { state.withLock { $0.clock = true } }
    }

    /// The series read, sorted.
    var series: [String] { state.withLock { $0.series.sorted() } }
    /// Whether a query listed every series.
    var readsEverySeries: Bool { state.withLock { $0.everySeries } }
    /// Whether a query read the store's clock.
    var readsClock: Bool { state.withLock { $0.clock } }
}
