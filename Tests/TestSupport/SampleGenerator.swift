import TrendStore
import TrendStoreGenerator

/// Makes random samples for tests: ordinary minute data and deliberately awkward batches.
public struct SampleGenerator {
    private var random: SeededGenerator

    /// Creates a generator; the same seed gives the same samples.
    public init(seed: Int) { random = SeededGenerator(seed: UInt64(truncatingIfNeeded: seed)) }

    /// Minute-cadence samples from `start`, with millisecond jitter and 3-decimal values.
    public mutating func minuteSamples(from start: Int64, count: Int) -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        var cursor = start
        for _ in 0..<count {
            let duration = Int64.random(in: 59_000...61_000, using: &random)
            let value = Double(Int.random(in: 0...15_000, using: &random)) / 1000
            samples.append(
                Sample(startMilliseconds: cursor, endMilliseconds: cursor + duration, value: value))
            cursor +=
                duration
                + (Int.random(in: 0..<20, using: &random) == 0
                    ? Int64.random(in: 0...600_000, using: &random) : 0)
        }
        return samples
    }

    /// ``minuteSamples(from:count:)`` in the order a phone and a watch deliver them: every
    /// `lateEvery`-th sample (from `firstLate`) arrives after the one that follows it.
    public mutating func minuteArrivals(
        from start: Int64, count: Int, firstLate: Int, lateEvery: Int
    ) -> [Sample] {
        var arrivals = minuteSamples(from: start, count: count)
        for index in stride(from: firstLate, to: arrivals.count, by: lateEvery) {
            arrivals.swapAt(index, index - 1)
        }
        return arrivals
    }

    /// Samples with random starts in `range`: zero-length ones, long ones crossing days,
    /// repeated starts, and values of any magnitude and precision.
    public mutating func awkwardSamples(in range: Range<Int64>, count: Int) -> [Sample] {
        (0..<count).map { _ in
            let start = Int64.random(in: range, using: &random)
            let duration: Int64
            switch Int.random(in: 0..<10, using: &random) {
            case 0: duration = 0
            case 1: duration = Int64.random(in: 1...(3 * 86_400_000), using: &random)
            case 2: duration = Int64.random(in: 1...999, using: &random)
            default: duration = Int64.random(in: 1...7_200_000, using: &random)
            }
            let value: Double
            switch Int.random(in: 0..<5, using: &random) {
            case 0: value = Double.random(in: -1e6...1e6, using: &random)
            case 1: value = Double(Int.random(in: -99_999...99_999, using: &random)) / 100
            case 2: value = Double.random(in: 0...1e-9, using: &random)
            default: value = Double(Int.random(in: 0...20_000, using: &random)) / 1000
            }
            return Sample(startMilliseconds: start, endMilliseconds: start + duration, value: value)
        }
    }

    /// Any finite double, drawn to hit every way a value coder can go wrong: random bit
    /// patterns (subnormals included), ±0, the largest magnitudes, decimals with 0 to 17
    /// significant digits at any scale, and integers up to 2^53.
    public mutating func anyFiniteValue() -> Double {
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            while true {
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        case 1:
            return Double(
                sign: Bool.random(using: &random) ? .minus : .plus,
                exponentBitPattern: 0,
                significandBitPattern: random.next() & ((1 << 52) - 1))
        case 2:
            return pick([
                0.0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                .leastNonzeroMagnitude, .leastNormalMagnitude, 1.7e308, -1.7e308, 1e15, -1e15,
            ])
        case 3:
            return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &random))
        default:
            // A decimal typed with `digits` significant digits, scaled anywhere from 1e-12 to 1e12.
            let digits = Int.random(in: 0...17, using: &random)
            var mantissa: Int64 = 0
            for _ in 0..<digits {
                mantissa = mantissa * 10 + Int64.random(in: 0...9, using: &random)
            }
            let exponent = Int.random(in: -12...12, using: &random)
            let sign = Bool.random(using: &random) ? "-" : ""
            return Double("\(sign)\(mantissa)e\(exponent)") ?? 0
        }
    }

    /// A random element of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }

    /// A random integer in `range`.
    public mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &random)
    }
}
