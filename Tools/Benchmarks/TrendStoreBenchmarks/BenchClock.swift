import Foundation

/// Timing helpers: median and p99 over many runs, peak RSS.
enum BenchClock {
    struct Timing {
        var median: Double
        var p99: Double
        var runs: Int

        /// The median and p99 of `samples` (µs).
        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            median = sorted[sorted.count / 2]
            p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            runs = sorted.count
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func seconds(since start: UInt64) -> Double { Double(now() - start) / 1e9 }

    /// Runs `body` once untimed, then `runs` times, and returns the median and p99 in µs.
    static func time(_ runs: Int, _ body: (Int) throws -> Void) throws -> Timing {
        try body(0)
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for index in 0..<runs {
            let start = now()
            try body(index)
            samples.append(Double(now() - start) / 1e3)
        }
        return Timing(samples)
    }

    /// Runs `body` once untimed, then `runs` times, awaiting each, and returns the median and p99 in µs.
    static func time(_ runs: Int, _ body: () async throws -> Void) async throws -> Timing {
        try await body()
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let start = now()
            try await body()
            samples.append(Double(now() - start) / 1e3)
        }
        return Timing(samples)
    }

    static func time(_ runs: Int, _ body: () throws -> Void) throws -> Timing {
        try time(runs) { (_: Int) in try body() }
    }

    /// The process's peak resident set size in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
