import Foundation
import TrendStore
import TrendStoreGenerator

/// One randomized comparison of the engine against ``ReferenceAggregator`` in one zone:
/// samples around one of the zone's offset changes, with instants at midnights, at the
/// change and at `now`, durations across it, duplicates, NFC and NFD spellings of the
/// series name and decimals of any length; then day curves, today's curve at several
/// `now`, a heatmap and a weekday average, each checked against the reference.
public struct DifferentialCase: Sendable, CustomStringConvertible {
    /// The zone.
    public let zoneIdentifier: String
    /// The seed of the samples and instants.
    public let seed: UInt64
    /// The batches written, in order (the last write of an identity wins).
    public var batches: [[Sample]]
    /// The instant the offset changes (or a random instant in a zone without changes).
    public let transition: Int64
    /// The instants the today curve is asked at.
    public let nows: [Int64]
    /// The weekday of the weekday average.
    public let weekday: Weekday

    /// The series name spelled in NFC and in NFD; writes alternate between them.
    static let spellings = ["Caf\u{E9}", "Cafe\u{301}"]

    /// `zone seed N`, enough to run the case again.
    public var description: String { "\(zoneIdentifier) seed \(seed)" }

    /// Draws a case for `zoneIdentifier` from `seed`.
    public init(zoneIdentifier: String, seed: UInt64) {
        self.zoneIdentifier = zoneIdentifier
        self.seed = seed
        // The seed and the zone's name, so each zone gets its own draw.
        var random = SeededGenerator(seed: seed)
        for byte in zoneIdentifier.utf8 {
            random = SeededGenerator(seed: random.next() ^ UInt64(byte))
        }
        let zone = TimeZone(identifier: zoneIdentifier)!
        // An offset change between 1970 and 2037, or a random instant where there is none.
        let anchor = Int64.random(in: 0...2_100_000_000_000, using: &random)
        let next = zone.nextDaylightSavingTimeTransition(
            after: Date(timeIntervalSince1970: Double(anchor) / 1000))
        transition =
            next.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
            .flatMap { $0 < anchor + 800 * 86_400_000 ? $0 : nil } ?? anchor
        let reference = ReferenceAggregator(zone: zone)
        let day = reference.date(of: transition)
        let midnights = (-1...2).compactMap { reference.start(of: day.adding(days: $0)) }
        func value() -> Double {
            let digits = Int.random(in: 0...6, using: &random)
            let integer = Double(Int64.random(in: 0...9_999_999, using: &random))
            let sign: Double = Int.random(in: 0..<8, using: &random) == 0 ? -1 : 1
            return sign * integer / pow(10, Double(digits))
        }
        var samples: [Sample] = []
        func add(_ start: Int64, _ duration: Int64) {
            samples.append(
                Sample(startMilliseconds: start, endMilliseconds: start + duration, value: value()))
        }
        for midnight in midnights {
            add(midnight, 0)
            add(midnight - 1, 0)
            add(
                midnight - Int64.random(in: 1...3_600_000, using: &random),
                Int64.random(in: 1...7_200_000, using: &random))
        }
        add(transition, 0)
        add(transition - 1, 0)
        for _ in 0..<Int.random(in: 4...12, using: &random) {
            add(
                transition - Int64.random(in: 0...10_800_000, using: &random),
                Int64.random(in: 1...21_600_000, using: &random))
        }
        for _ in 0..<Int.random(in: 10...50, using: &random) {
            let start = transition + Int64.random(in: -172_800_000...172_800_000, using: &random)
            let kind = Int.random(in: 0..<10, using: &random)
            add(
                start,
                kind == 0
                    ? 0
                    : kind == 1
                        ? Int64.random(in: 1...172_800_000, using: &random)
                        : Int64.random(in: 1...3_600_000, using: &random))
        }
        // Earlier days for the weekday average, and now somewhere after the change.
        let now = transition + Int64.random(in: -86_400_000...(40 * 86_400_000), using: &random)
        for _ in 0..<Int.random(in: 5...25, using: &random) {
            add(
                now - Int64.random(in: 0...(72 * 86_400_000), using: &random),
                Int64.random(in: 0...3_600_000, using: &random))
        }
        // Duplicated identities with other values, which the later write replaces.
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            guard let original = samples.randomElement(using: &random) else { break }
            samples.append(
                Sample(
                    startMilliseconds: original.startMilliseconds,
                    endMilliseconds: original.endMilliseconds, value: value()))
        }
        samples.shuffle(using: &random)
        let cut = Int.random(in: 0...samples.count, using: &random)
        batches = [Array(samples[..<cut]), Array(samples[cut...])]
        add(now, 0)  // an instant exactly at one of the nows
        batches[1].append(samples.removeLast())
        let sampleStart = samples.randomElement(using: &random)?.startMilliseconds ?? now
        nows = [now, transition, midnights.first ?? now, sampleStart, transition - 1]
        weekday = Weekday(rawValue: Int.random(in: 1...7, using: &random)) ?? .sunday
    }

    /// The samples the store should hold: the last write of each identity.
    public var storedSamples: [Sample] {
        var latest: [Int64: [Int64: Sample]] = [:]
        for batch in batches {
            for sample in batch {
                latest[sample.startMilliseconds, default: [:]][sample.endMilliseconds] = sample
            }
        }
        return latest.values.flatMap(\.values).sorted {
            ($0.startMilliseconds, $0.endMilliseconds) < ($1.startMilliseconds, $1.endMilliseconds)
        }
    }

    /// Runs the case in a fresh store; returns the first disagreement (an error the
    /// engine throws on valid data is one), or `nil`.
    public func firstMismatch() async throws -> String? {
        let zone = TimeZone(identifier: zoneIdentifier)!
        var options = StoreOptions()
        options.timeZone = zone
        return try await withTemporaryStore(options: options) { store, _ in
            do {
                for (index, batch) in batches.enumerated() where !batch.isEmpty {
                    try await store.write(batch, to: Self.spellings[index % 2], unit: "kcal")
                }
                return try compare(store, zone: zone)
            } catch {
                return "the engine threw: \(error)"
            }
        }
    }

    private func compare(_ store: TrendStore, zone: TimeZone) throws -> String? {
        let samples = storedSamples
        let reference = ReferenceAggregator(zone: zone)
        let series = Self.spellings[1]
        let day = reference.date(of: transition)
        let dates = (-1...1).map { day.adding(days: $0) }
        for date in dates {
            let expected = reference.detailedFigures(of: date, samples: samples)
            let actual = try store.dayCurve(of: series, on: date).hourly
            if let hour = mismatch(actual, expected.hourly, expected.magnitude) {
                return
                    "dayCurve \(date) hour \(hour): \(actual[hour]) vs reference \(expected.hourly[hour])"
            }
        }
        for now in nows {
            let today = reference.date(of: now)
            let expected = reference.detailedFigures(of: today, samples: samples, now: now)
            let curve = try store.todayCurve(of: series, now: Date(milliseconds: now))
            if curve.date != today {
                return "todayCurve now \(now): date \(curve.date) vs reference \(today)"
            }
            if let hour = mismatch(curve.hourly, expected.hourly, expected.magnitude) {
                return
                    "todayCurve now \(now) hour \(hour): \(curve.hourly[hour]) vs reference \(expected.hourly[hour])"
            }
            let latest = reference.latestSampleTimestamp(samples: samples, now: now)
            let actualLatest = curve.latestSampleTimestamp.map(\.millisecondsSince1970)
            if actualLatest != latest {
                return
                    "todayCurve now \(now): latestSampleTimestamp \(actualLatest.map(String.init) ?? "nil") vs reference \(latest.map(String.init) ?? "nil")"
            }
        }
        let heatmap = try store.heatmap(of: [Self.spellings[0]], from: dates[0], through: dates[2])
        for (date, entry) in zip(dates, heatmap.days) {
            let expected = reference.figures(of: date, samples: samples)
            let magnitude = samples.map { abs($0.value) }.reduce(0, +)
            if entry.count != expected.count
                || !approximatelyEqual(entry.total, expected.total, scale: magnitude)
            {
                return
                    "heatmap \(date): \(entry.count) samples, \(entry.total) vs reference \(expected.count), \(expected.total)"
            }
        }
        let now = nows[0]
        let expected = reference.weekdayAverage(
            samples: samples, weekday: weekday.rawValue, now: now)
        let average = try store.weekdayAverage(
            of: series, weekday: weekday, now: Date(milliseconds: now))
        if average.days != expected.days {
            return
                "weekdayAverage \(weekday) now \(now): days \(average.days) vs reference \(expected.days)"
        }
        if let pattern = expected.pattern {
            let magnitude = samples.map { abs($0.value) }.reduce(0, +)
            for hour in 0..<24
            where !approximatelyEqual(
                average.averageHourlyPattern?[hour] ?? .nan, pattern[hour], scale: magnitude)
            {
                return
                    "weekdayAverage \(weekday) now \(now) hour \(hour): \(average.averageHourlyPattern?[hour] ?? .nan) vs reference \(pattern[hour])"
            }
        } else if average.averageHourlyPattern != nil {
            return "weekdayAverage \(weekday) now \(now): a pattern where the reference has none"
        }
        return nil
    }

    private func mismatch(_ actual: [Double], _ expected: [Double], _ magnitude: [Double]) -> Int? {
        guard actual.count == expected.count else { return 0 }
        // Compare cumulative sums, as the curves are used, each within 1e-9 of the magnitudes involved.
        var runningActual = 0.0
        var runningExpected = 0.0
        var runningMagnitude = 0.0
        for hour in 0..<actual.count {
            runningActual += actual[hour]
            runningExpected += expected[hour]
            runningMagnitude += magnitude[hour]
            if !approximatelyEqual(runningActual, runningExpected, scale: runningMagnitude) {
                return hour
            }
        }
        return nil
    }

    /// The case with as few samples as still show `mismatch`: whole batches, then halves,
    /// then single samples are dropped while the disagreement remains.
    public func minimized() async throws -> DifferentialCase {
        var current = self
        var chunk = max(1, batches.map(\.count).reduce(0, +) / 2)
        while chunk >= 1 {
            var progressed = false
            for batchIndex in current.batches.indices {
                var start = 0
                while start < current.batches[batchIndex].count {
                    var candidate = current
                    let end = min(start + chunk, candidate.batches[batchIndex].count)
                    candidate.batches[batchIndex].removeSubrange(start..<end)
                    // An empty store has no series to query: keep at least one sample.
                    if candidate.batches.contains(where: { !$0.isEmpty }),
                        try await candidate.firstMismatch() != nil
                    {
                        current = candidate
                        progressed = true
                    } else {
                        start += chunk
                    }
                }
            }
            if !progressed { chunk /= 2 }
        }
        return current
    }

    /// The case as files and commands a person can run.
    public var repro: String {
        var lines = [
            "zone \(zoneIdentifier), seed \(seed), offset change at \(transition), nows \(nows), weekday \(weekday)"
        ]
        for (index, batch) in batches.enumerated() {
            lines.append(
                "batch \(index + 1) (series \(index % 2 == 0 ? "NFC" : "NFD") Café): series,start,end,value"
            )
            lines += batch.map { "x,\($0.startMilliseconds),\($0.endMilliseconds),\($0.value)" }
        }
        return lines.joined(separator: "\n")
    }
}
