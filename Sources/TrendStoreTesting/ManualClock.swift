import Foundation
import Synchronization

/// A clock a test sets and moves, to give `StoreOptions.clock`: one clock then
/// governs the store's queries whose `now` is left out, its cache freshness rules and its
/// migrations.
///
/// ```swift
/// let clock = ManualClock(Date(timeIntervalSince1970: 1_772_647_200))
/// var options = StoreOptions()
/// options.clock = clock.reading
/// let store = try TemporaryStore(options: options).store
/// clock.advance(by: 86_400)  // tomorrow: todayCurve(of:) now answers for the next day
/// ```
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock reading `start`.
    public init(_ start: Date) { current = Mutex(start) }

    /// The time the clock reads.
    public var now: Date { current.withLock { $0 } }

    /// Sets the time.
    public func set(_ date: Date) { current.withLock { $0 = date } }

    /// Moves the time by `seconds` (back when negative).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The closure to give `StoreOptions.clock`: it reads this clock.
    public var reading: @Sendable () -> Date { { [self] in now } }
}
