/// How regular the generated energy and heart-rate series are: the spacing, durations and
/// order of their samples.
///
/// The defaults are the original generator's: minute samples, each starting where the last
/// ended, durations of 60 s ± 0.5 s, in order, no overlaps, heart rate every 5 s during an
/// activity and every 5 min otherwise.
public struct SampleShape: Sendable, Equatable {
    /// The nominal duration of an energy sample, ms (60,000: a sample a minute; a day: one a day).
    public var duration: Int64 = 60_000
    /// The most a duration differs from `duration`, either way, ms.
    public var durationJitter: Int64 = 500
    /// The chance that a sample starts exactly where the previous one ended.
    public var contiguousProbability = 1.0
    /// Otherwise the gap before it, drawn uniformly from 1 ms to this, ms.
    public var maximumGap: Int64 = 0
    /// The chance of a second, longer sample (1 to 5 durations) starting inside a sample, as
    /// a phone and a watch both recording produce.
    public var overlapProbability = 0.0
    /// The chance that a sample is written after the one that follows it.
    public var outOfOrderProbability = 0.0
    /// Heart-rate readings all day at gaps drawn from this range, ms; `nil`: every 5 s
    /// during an activity and every 5 min otherwise.
    public var heartRateGaps: ClosedRange<Int64>?

    /// The original generator's shape.
    public init() {}
}

/// The data shapes the benchmarks run on: ``DatasetGenerator/Configuration`` settings that
/// stand for different devices and apps.
public enum DataProfile: String, Sendable, CaseIterable {
    /// The original generator: contiguous minute energy, 3 decimals, daily activities.
    case generated
    /// A watch's energy: 70% of samples start where the previous ended, the rest 1 ms to
    /// 6 s later; durations 57 s ± 1.5 s; 4 decimals; 1% overlapped by a phone's sample, 1%
    /// out of order.
    case irregular
    /// The original energy and activities, with heart rate all day at irregular 1–10 s gaps.
    case heartRate
    /// Daily and sparse series only: one energy sample a day, and the activities.
    case sparse
    /// Shape parameters drawn from the seed (see ``DataProfile/configure(_:seed:)``).
    case random

    /// Sets `configuration`'s shape, decimals and series for this profile; `seed` draws the
    /// random profile's parameters. Returns a one-line description of the shape.
    @discardableResult
    public func configure(_ configuration: inout DatasetGenerator.Configuration, seed: UInt64)
        -> String
    {
        var shape = SampleShape()
        switch self {
        case .generated: break
        case .irregular:
            shape.duration = 57_000
            shape.durationJitter = 1_500
            shape.contiguousProbability = 0.7
            shape.maximumGap = 6_000
            shape.overlapProbability = 0.01
            shape.outOfOrderProbability = 0.01
            configuration.energyDecimals = 4
        case .heartRate:
            configuration.heartRateSeries = "heartRate"
            shape.heartRateGaps = 1_000...10_000
        case .sparse:
            shape.duration = 86_400_000
            shape.durationJitter = 0
        case .random:
            var random = SeededGenerator(seed: seed)
            shape.duration =
                [5_000, 15_000, 60_000, 300_000].randomElement(using: &random) ?? 60_000
            shape.durationJitter = Int64.random(in: 0...(shape.duration / 20), using: &random)
            shape.contiguousProbability = Double.random(in: 0.2...1, using: &random)
            shape.maximumGap = Int64.random(in: 0...(shape.duration / 4), using: &random)
            shape.overlapProbability = Double.random(in: 0...0.05, using: &random)
            shape.outOfOrderProbability = Double.random(in: 0...0.05, using: &random)
            configuration.energyDecimals = Int.random(in: 0...6, using: &random)
        }
        configuration.shape = shape
        return
            "profile \(rawValue): energy every \(shape.duration) ms ± \(shape.durationJitter), "
            + "contiguous \(shape.contiguousProbability) else gaps to \(shape.maximumGap) ms, "
            + "overlaps \(shape.overlapProbability), out of order \(shape.outOfOrderProbability), "
            + "\(configuration.energyDecimals) decimals"
            + (shape.heartRateGaps.map { ", heart rate every \($0) ms" } ?? "")
            + (self == .random ? ", seed \(seed)" : "")
    }
}
