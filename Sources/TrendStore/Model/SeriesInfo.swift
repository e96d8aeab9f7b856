import Foundation

/// A series and what the store holds of it.
public struct SeriesInfo: Sendable, Equatable, Codable {
    /// The series name.
    public var name: String
    /// The unit of its values.
    public var unit: String
    /// Whether its values add up or are measurements.
    public var kind: SeriesKind
    /// How many samples it holds.
    public var sampleCount: Int
    /// The earliest start, or `nil` when the series is empty.
    public var firstStart: Date?
    /// The latest end, or `nil` when the series is empty.
    public var lastEnd: Date?

    /// Creates a description of a series.
    public init(
        name: String, unit: String, kind: SeriesKind = .cumulative, sampleCount: Int,
        firstStart: Date? = nil, lastEnd: Date? = nil
    ) {
        self.name = name
        self.unit = unit
        self.kind = kind
        self.sampleCount = sampleCount
        self.firstStart = firstStart
        self.lastEnd = lastEnd
    }
}
