import Foundation
import TrendStore
import TrendStoreGenerator

/// The two-source profile: a watch's minute stream with 20% of its time off the wrist (runs
/// of 1–6 hours on, 10–95 minutes off) and a phone's 5–15-minute samples with gaps of up to
/// ten minutes over the same span; and runs (a `Run` series for heatmaps) recorded by the
/// watch on 70% of days and by Strava too (most of the watch's, shifted by up to 30 s, and
/// a few of its own), drawn from a seed.
struct TwoSources {
    static let watchName = "Apple Watch"
    static let phoneName = "iPhone"
    static let stravaName = "Strava"
    let watch: [Sample]
    let phone: [Sample]
    let watchRuns: [Sample]
    let stravaRuns: [Sample]
    /// Energy samples of both sources.
    var count: Int { watch.count + phone.count }

    /// How a file holds the samples.
    enum Form {
        /// One series, a `source` column.
        case sources
        /// The two sources as two series, no source.
        case separateSeries
        /// The watch's samples alone, one series, no source.
        case watchAlone
    }

    init(from: Int64, to: Int64, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var watch: [Sample] = []
        var start = from + 17_000
        while start < to {
            let runEnd = min(to, start + Int64.random(in: 60...360, using: &random) * 60_000)
            while start < runEnd {
                let value = Double(Int.random(in: 0...90, using: &random)) / 10
                watch.append(
                    Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: value))
                start += 60_000
            }
            start += Int64.random(in: 10...95, using: &random) * 60_000
        }
        var phone: [Sample] = []
        start = from
        while start < to {
            let length = Int64.random(in: 5...15, using: &random) * 60_000
            let value = Double(Int.random(in: 0...10_000, using: &random)) / 100
            phone.append(
                Sample(startMilliseconds: start, endMilliseconds: start + length, value: value))
            start += length + Int64.random(in: 0...10, using: &random) * 60_000
        }
        var watchRuns: [Sample] = []
        var stravaRuns: [Sample] = []
        var day = from - from % 86_400_000 + 86_400_000
        while day < to {
            let start = day + Int64.random(in: 6...19, using: &random) * 3_600_000
            let length = Int64.random(in: 20...90, using: &random) * 60_000
            let metres = Double(Int.random(in: 2_000...15_000, using: &random))
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 70 {
                watchRuns.append(
                    Sample(startMilliseconds: start, endMilliseconds: start + length, value: metres)
                )
            }
            if roll < 60 || roll >= 95 {
                let shift = Int64.random(in: -30...30, using: &random) * 1000
                stravaRuns.append(
                    Sample(
                        startMilliseconds: start + shift, endMilliseconds: start + shift + length,
                        value: metres + 25))
            }
            day += 86_400_000
        }
        self.watch = watch
        self.phone = phone
        self.watchRuns = watchRuns
        self.stravaRuns = stravaRuns
    }

    /// Writes the samples to a CSV at `path` in `form`.
    func write(to path: String, form: Form) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw BenchmarkError("\(path) cannot be written") }
        defer { try? handle.close() }
        var buffer = Array(
            (form == .sources
                ? "series,start,end,value,unit,source\n" : "series,start,end,value,unit\n").utf8)
        func add(_ samples: [Sample], series: String, source: String?) throws {
            for sample in samples {
                let tail = source.map { ",\($0)" } ?? ""
                buffer += Array(
                    "\(series),\(sample.startMilliseconds),\(sample.endMilliseconds),\(sample.value),kcal\(tail)\n"
                        .utf8)
                if buffer.count > 1 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        switch form {
        case .sources:
            try add(watch, series: "activeEnergy", source: Self.watchName)
            try add(phone, series: "activeEnergy", source: Self.phoneName)
            try add(watchRuns, series: "Run", source: Self.watchName)
            try add(stravaRuns, series: "Run", source: Self.stravaName)
        case .separateSeries:
            try add(watch, series: "activeEnergyWatch", source: nil)
            try add(phone, series: "activeEnergyPhone", source: nil)
        case .watchAlone:
            try add(watch, series: "activeEnergy", source: nil)
            try add(watchRuns, series: "Run", source: nil)
        }
        try handle.write(contentsOf: buffer)
    }
}
