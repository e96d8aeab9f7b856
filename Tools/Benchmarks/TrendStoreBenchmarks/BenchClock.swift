import Foundation

/// Timing helpers: median and p99 over many runs, peak RSS.
enum BenchClock {
    struct Timing {
        var median: Double
        var p99: Double
        var runs: Int
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
        samples.sort()
        return Timing(
            median: samples[samples.count / 2],
            p99: samples[min(samples.count - 1, samples.count * 99 / 100)], runs: runs)
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
