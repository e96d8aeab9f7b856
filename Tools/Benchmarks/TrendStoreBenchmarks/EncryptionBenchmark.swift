import Foundation
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

/// An encrypted store beside a plain one holding the same dataset, in the same run: ingest,
/// bytes per sample, a weekday average, all seven over all time (cold and warm), and a
/// single-sample durable write; each figure with the issue's bound on the ratio.
enum EncryptionBenchmark {
    /// One figure of both stores.
    struct Row {
        var label: String
        var plain: Double
        var encrypted: Double
        /// `encrypted / plain` must stay at or below this (at or above, for a rate).
        var bound: Double
        var isRate = false
        var unit: String

        var ratio: Double { encrypted / plain }
        var holds: Bool { isRate ? ratio >= bound : ratio <= bound }
    }

    static func run(
        directory: URL, days: Int, endDate: LocalDate, zone: TimeZone, iterations: Int,
        only: String?
    ) async throws -> String {
        func wanted(_ label: String) -> Bool { only.map(label.hasPrefix) ?? true }
        let csv = try DatasetFile.write(
            "encryption-data.csv", in: directory, days: days, endDate: endDate, zone: zone)

        var stores: [TrendStore] = []
        var rates: [[Double]] = [[], []]
        var samples = 0
        // Two imports each, alternating, into new stores: the faster of each pair counts.
        for round in 0..<2 {
            for encrypted in [false, true] {
                let store = try freshStore(
                    "encryption-\(encrypted)-\(round)", in: directory, zone: zone,
                    encrypted: encrypted, durable: false)
                let summary = try await Importer(store: store).importFile(at: csv)
                samples = summary.samplesRead
                rates[encrypted ? 1 : 0].append(summary.samplesPerSecond)
                if round == 1 { stores.append(store) }
            }
        }
        var rows = [
            Row(
                label: "ingest, end to end (samples/s)", plain: rates[0].max()!,
                encrypted: rates[1].max()!, bound: 0.8, isRate: true, unit: "/s"),
            Row(
                label: "bytes on disk per sample",
                plain: Double(stores[0].fileSize) / Double(samples),
                encrypted: Double(stores[1].fileSize) / Double(samples), bound: 1.03, unit: "B"),
        ]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = calendar.date(
            from: DateComponents(year: 2026, month: 11, day: 21, hour: 13, minute: 37))!
        let day = Weekday(of: endDate)
        // Alternating runs of the two stores, so a slow moment of the machine hits both.
        func compare(
            _ label: String, runs: Int, bound: Double, _ body: (TrendStore) throws -> Void
        ) throws {
            guard wanted(label) else { return }
            var timings: [[Double]] = [[], []]
            for _ in 0..<3 {
                for (index, store) in stores.enumerated() {
                    timings[index].append(try BenchClock.time(runs) { try body(store) }.median)
                }
            }
            guard try answers(stores[0], now) == answers(stores[1], now) else {
                throw BenchmarkError("\(label): the two stores answer differently")
            }
            rows.append(
                Row(
                    label: label + " (median µs)", plain: timings[0].sorted()[1],
                    encrypted: timings[1].sorted()[1], bound: bound, unit: "µs"))
        }
        try compare("Q1 weekday average", runs: iterations, bound: 1.5) {
            _ = try $0.weekdayAverage(of: "activeEnergy", weekday: day, now: now)
        }
        try compare(
            "Q4 all seven weekday averages, all time", runs: max(20, iterations / 50), bound: 1.3
        ) {
            _ = try $0.weekdayAverages(
                of: "activeEnergy", now: now, options: .init(window: .allTime))
        }
        try compare("Q3 one-year heatmap, Ride + Run", runs: max(20, iterations / 10), bound: 1.5) {
            _ = try $0.heatmap(
                of: ["Ride", "Run"], from: endDate.adding(days: -364), through: endDate)
        }
        if wanted("1-sample") {
            rows.append(
                try await durableWrites(
                    directory: directory, zone: zone, runs: max(300, iterations / 4)))
        }
        return render(rows, samples: samples, days: days, zone: zone)
    }

    /// The figures both stores must agree on.
    private static func answers(_ store: TrendStore, _ now: Date) throws -> String {
        "\(try store.weekdayAverages(of: "activeEnergy", now: now, options: .init(window: .allTime)))"
    }

    /// Single-sample durable commits appended to a series of 100,000 minute samples.
    private static func durableWrites(directory: URL, zone: TimeZone, runs: Int) async throws
        -> Row
    {
        let start: Int64 = 1_760_000_000_000
        let history: [Sample] = (0..<100_000).map { (index: Int) -> Sample in
            let begin = start + Int64(index) * 60_000
            return Sample(
                startMilliseconds: begin, endMilliseconds: begin + 60_000,
                value: Double(index % 97) / 10)
        }
        var stores: [TrendStore] = []
        for encrypted in [false, true] {
            let store = try freshStore(
                "writes-\(encrypted)", in: directory, zone: zone, encrypted: encrypted,
                durable: true)
            try await store.write(history, to: "energy", unit: "kcal")
            stores.append(store)
        }
        // Commit by commit, alternating which store goes first: a slow spell of the disk's
        // syncs (they last longer than a hundred commits on a shared machine) hits both. At
        // least 300 each (a third of a second): CI's 25 let one spell move the median.
        var timings: [[Double]] = [[], []]
        var next = start + 100_000 * 60_000
        for run in 0...runs {
            for index in run.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                let began = BenchClock.now()
                try await stores[index].write(
                    [Sample(startMilliseconds: next, endMilliseconds: next + 60_000, value: 1)],
                    to: "energy", unit: "kcal")
                // The first commit of each store is not timed (as BenchClock does).
                if run > 0 { timings[index].append(BenchClock.seconds(since: began) * 1e6) }
            }
            next += 60_000
        }
        return Row(
            label: "1-sample durable write (median µs)",
            plain: BenchClock.Timing(timings[0]).median,
            encrypted: BenchClock.Timing(timings[1]).median, bound: 1.2, unit: "µs")
    }

    private static func freshStore(
        _ name: String, in directory: URL, zone: TimeZone, encrypted: Bool, durable: Bool
    ) throws -> TrendStore {
        var options = StoreOptions()
        options.timeZone = zone
        options.durability = durable ? .full : .none
        if encrypted { options.encryptionKey = .random() }
        let url = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        return try TrendStore(directory: url, options: options)
    }

    private static func render(_ rows: [Row], samples: Int, days: Int, zone: TimeZone) -> String {
        var lines = [
            "encryption: \(samples) samples, \(days) days in \(zone.identifier); plain and AES-256-GCM stores of the same data, same run",
            "| figure | plain | encrypted | ratio | bound | holds |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for row in rows {
            let format = row.isRate ? "%.3g" : row.unit == "B" ? "%.3f" : "%.1f"
            lines.append(
                "| \(row.label) | \(String(format: format, row.plain)) | "
                    + "\(String(format: format, row.encrypted)) | "
                    + String(format: "%.3f", row.ratio) + " | "
                    + "\(row.isRate ? "≥" : "≤") \(row.bound) | \(row.holds ? "yes" : "NO") |")
        }
        return lines.joined(separator: "\n")
    }
}
