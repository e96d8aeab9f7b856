import Foundation
import TrendStore

/// `verify` and `info` (what `trendstore info` reads: the series list and the footprint) on stores of
/// 25,000, 50,000 and 100,000 one-sample series: each should cost in proportion to the
/// series (issue 32, item 10: verify took 7 s, 28.5 s and 109 s before, info 16 s at 100,000).
enum ManySeriesBenchmark {
    static let seriesCounts = [25_000, 50_000, 100_000]

    /// Runs the suite; `runs` timed runs of each figure per store.
    static func run(directory: URL, runs: Int, report: inout Report) async throws {
        var perSeries: [String: [Double]] = [:]
        for count in seriesCounts {
            let store = try await filledStore(count, in: directory)
            let figures: [(String, () throws -> Void)] = [
                ("verify", { _ = try store.verify() }),
                (
                    "info",
                    {
                        _ = try store.series()
                        _ = try store.footprint()
                    }
                ),
            ]
            for (name, body) in figures {
                let timing = try BenchClock.time(runs) { _ in try body() }
                report.add(
                    "\(name), \(count / 1_000)k one-sample series", trendStore: timing,
                    unit: .microseconds)
                perSeries[name, default: []].append(timing.median / Double(count))
            }
        }
        for (name, costs) in perSeries.sorted(by: { $0.key < $1.key }) {
            let growth = (costs.last ?? 0) / max(costs.first ?? 1, 1e-9)
            print(
                String(
                    format:
                        "%@: %.2f µs per series at 25k, %.2f at 100k (%.2f×: 1 is linear, 4 quadratic)",
                    name, costs.first ?? 0, costs.last ?? 0, growth))
        }
    }

    /// A new store holding `count` series of one sample each, written 5,000 series a batch.
    private static func filledStore(_ count: Int, in directory: URL) async throws -> TrendStore {
        let store = try WritePathBenchmark.freshStore(
            "many-series-\(count)", in: directory, durability: .none)
        for first in stride(from: 0, to: count, by: 5_000) {
            let parts = (first..<min(count, first + 5_000)).map { index in
                let start = Int64(index) * 60_000
                return SeriesSamples(
                    series: "series-\(index)", unit: "count",
                    samples: [
                        Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: 1)
                    ])
            }
            _ = try await store.write(parts)
        }
        return store
    }
}
