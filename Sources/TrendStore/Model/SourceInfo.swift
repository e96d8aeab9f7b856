import Foundation

/// A source of a series and what the store holds of it.
public struct SourceInfo: Sendable, Equatable, Codable {
    /// The source's name; empty for the default source (the one writes that name no source
    /// go to).
    public var name: String
    /// Its place in the series' priority order: 1 is the highest.
    public var rank: Int
    /// How many samples it wrote.
    public var sampleCount: Int
    /// The earliest start, or `nil` when it holds no sample.
    public var firstStart: Date?
    /// The latest end, or `nil` when it holds no sample.
    public var lastEnd: Date?

    /// Creates a description of a source.
    public init(name: String, rank: Int, sampleCount: Int, firstStart: Date?, lastEnd: Date?) {
        self.name = name
        self.rank = rank
        self.sampleCount = sampleCount
        self.firstStart = firstStart
        self.lastEnd = lastEnd
    }
}
