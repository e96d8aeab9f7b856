import Foundation
import Synchronization

/// A clock tests set and move, for `StoreOptions.clock`.
public final class MovableClock: Sendable {
    private let current: Mutex<Date>

    /// A clock reading `start`.
    public init(_ start: Date) { current = Mutex(start) }

    /// The time the clock reads.
    public var now: Date { current.withLock { $0 } }

    /// Sets the time.
    public func set(_ date: Date) { current.withLock { $0 = date } }

    /// The closure to give `StoreOptions.clock`.
    public var reading: @Sendable () -> Date { { [self] in now } }
}
