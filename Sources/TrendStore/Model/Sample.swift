import Foundation

/// One measurement: a value over a time interval, such as the active energy of one minute.
///
/// Times are kept as whole milliseconds since 1970-01-01T00:00:00Z; sub-millisecond
/// parts of a `Date` are floored. A sample whose `end` equals its `start` is an instant.
///
/// ```swift
/// let sample = Sample(start: minuteStart, end: minuteStart + 60, value: 4.2)
/// ```
public struct Sample: Sendable, Hashable, Codable {
    /// The first millisecond of the sample, since 1970-01-01T00:00:00Z.
    public var startMilliseconds: Int64
    /// The millisecond the sample ends at (exclusive), since 1970-01-01T00:00:00Z.
    public var endMilliseconds: Int64
    /// The measured amount, in the series' unit.
    public var value: Double

    /// Creates a sample from millisecond timestamps.
    public init(startMilliseconds: Int64, endMilliseconds: Int64, value: Double) {
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.value = value
    }

    /// Creates a sample from dates, flooring each to the millisecond.
    public init(start: Date, end: Date, value: Double) {
        self.init(
            startMilliseconds: start.millisecondsSince1970,
            endMilliseconds: end.millisecondsSince1970, value: value
        )
    }

    /// The sample's start as a `Date`.
    public var start: Date { Date(milliseconds: startMilliseconds) }
    /// The sample's end as a `Date`.
    public var end: Date { Date(milliseconds: endMilliseconds) }
    /// The sample's length in milliseconds.
    public var durationMilliseconds: Int64 { endMilliseconds - startMilliseconds }
}

extension Date {
    /// The date as whole milliseconds since 1970, the instants the store keeps, flooring
    /// sub-millisecond parts.
    ///
    /// A date within a microsecond below a whole millisecond counts as that millisecond,
    /// so a timestamp that went through `Date`'s floating point comes back unchanged.
    /// Dates beyond what Int64 milliseconds hold (±292 million years) are clamped to its
    /// limits rather than trapping; the store rejects them by its own range.
    public var millisecondsSince1970: Int64 {
        let exact = timeIntervalSince1970 * 1000
        guard exact.isFinite else { return exact > 0 ? .max : .min }
        let nearest = exact.rounded()
        let floored = abs(exact - nearest) < 0.001 ? nearest : exact.rounded(.down)
        guard floored < 9.2e18 else { return .max }
        guard floored > -9.2e18 else { return .min }
        return Int64(floored)
    }

    /// Creates a date from milliseconds since 1970-01-01T00:00:00Z.
    public init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
