import Foundation
import TrendStore

/// The merge of several sources computed the slow, obvious way, from the rule's words: at
/// every instant the highest-priority source whose sample covers it counts. Each sample of
/// a source keeps the parts of its interval that no sample of a higher source covers,
/// found by cutting every higher sample's interval out of it one at a time; nothing here
/// shares code with the engine.
public struct ReferenceMerge {
    /// One sample's share of the merged view.
    public struct Kept {
        /// The sample as written.
        public let sample: Sample
        /// The uncovered parts of its interval.
        public let pieces: [Range<Int64>]
        /// Its value times its uncovered fraction (the whole value for an uncovered instant).
        public let value: Double
        /// Whether it counts as a sample of its start's date: more than half uncovered (an
        /// instant: uncovered).
        public let counts: Bool
    }

    /// Every sample of `sources` (highest priority first) with what it keeps.
    public static func merge(_ sources: [[Sample]]) -> [Kept] {
        var kept: [Kept] = []
        for (rank, samples) in sources.enumerated() {
            let higher = sources[..<rank].joined().filter {
                $0.endMilliseconds > $0.startMilliseconds
            }
            for sample in samples {
                let (a, b) = (sample.startMilliseconds, sample.endMilliseconds)
                if a == b {
                    let covered = higher.contains {
                        $0.startMilliseconds <= a && a < $0.endMilliseconds
                    }
                    kept.append(
                        Kept(
                            sample: sample, pieces: [], value: covered ? 0 : sample.value,
                            counts: !covered))
                    continue
                }
                var pieces = [a..<b]
                for cover in higher {
                    pieces = pieces.flatMap { piece -> [Range<Int64>] in
                        var rest: [Range<Int64>] = []
                        if cover.startMilliseconds > piece.lowerBound {
                            rest.append(
                                piece.lowerBound..<min(piece.upperBound, cover.startMilliseconds))
                        }
                        if cover.endMilliseconds < piece.upperBound {
                            rest.append(
                                max(piece.lowerBound, cover.endMilliseconds)..<piece.upperBound)
                        }
                        return rest.filter { !$0.isEmpty }
                    }
                }
                let uncovered = pieces.reduce(Int64(0)) { $0 + Int64($1.count) }
                kept.append(
                    Kept(
                        sample: sample, pieces: pieces,
                        value: sample.value * Double(uncovered) / Double(b - a),
                        counts: 2 * uncovered > b - a))
            }
        }
        return kept
    }

    /// The kept parts as plain samples for a reference of prorated figures: each uncovered
    /// piece with the sample's share of it, each uncovered instant whole.
    public static func prorated(_ kept: [Kept]) -> [Sample] {
        kept.flatMap { entry -> [Sample] in
            let sample = entry.sample
            if sample.startMilliseconds == sample.endMilliseconds {
                return entry.counts ? [sample] : []
            }
            let duration = Double(sample.endMilliseconds - sample.startMilliseconds)
            return entry.pieces.map {
                Sample(
                    startMilliseconds: $0.lowerBound, endMilliseconds: $0.upperBound,
                    value: sample.value * Double($0.count) / duration)
            }
        }
    }
}
