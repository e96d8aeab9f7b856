import Foundation
import Testing
@testable import TrendStore

/// A batch is ordered by identity with the last occurrence of each identity kept, however far
/// from order its input is: nearly sorted (insertion within a budget) or not (merge sort).
@Suite("Sample batch order")
struct SampleBatchOrderTests {
    /// The obviously right answer: the last value given for each identity, by identity.
    private static func reference(_ samples: [Sample]) -> [Sample] {
        var last: [[Int64]: Sample] = [:]
        for sample in samples { last[[sample.startMilliseconds, sample.endMilliseconds]] = sample }
        return last.values.sorted {
            ($0.startMilliseconds, $0.endMilliseconds) < ($1.startMilliseconds, $1.endMilliseconds)
        }
    }

    @Test(
        "nearly sorted, shuffled, reversed, with repeated identities: the reference's samples",
        arguments: [0, 1, 2, 3, 4, 5])
    func orders(shape: Int) throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let count = [1, 2, 10, 1_000, 20_000][round % 5]
            var samples = (0..<count).map { index -> Sample in
                let start = Int64(index / 2) * 60_000
                return Sample(
                    startMilliseconds: start,
                    endMilliseconds: start + 60_000 + Int64(index % 2)
                        * Int64.random(
                            in: 0...2, using: &random),
                    value: Double(index))
            }
            switch shape {
            case 0:  // a few late arrivals
                for _ in 0..<(count / 50 + 1) where count > 1 {
                    let from = Int.random(in: 0..<count, using: &random)
                    let sample = samples.remove(at: from)
                    samples.insert(
                        sample, at: min(count - 1, from + Int.random(in: 0...30, using: &random)))
                }
            case 1: samples.shuffle(using: &random)
            case 2: samples.reverse()
            case 3:  // one sample from the end moved to the front: over the insertion budget
                if count > 1 { samples.insert(samples.removeLast(), at: 0) }
            case 4:  // every identity twice, the second with another value
                samples += samples.map {
                    Sample(
                        startMilliseconds: $0.startMilliseconds,
                        endMilliseconds: $0.endMilliseconds, value: $0.value + 0.5)
                }
                samples.swapAt(0, samples.count - 1)
            default:  // blocks of the same start in reverse order of end
                samples.sort {
                    ($0.startMilliseconds, -$0.endMilliseconds) < (
                        $1.startMilliseconds, -$1.endMilliseconds
                    )
                }
            }
            let batch = try SampleBatch(series: "s", samples: samples)
            let expected = Self.reference(samples)
            let same = batch.samples == expected
            #expect(same, "shape \(shape), \(count) samples")
            #expect(batch.duplicates == samples.count - expected.count)
        }
    }
}
