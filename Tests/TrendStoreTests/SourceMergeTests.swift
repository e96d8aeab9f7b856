import Foundation
import Testing
import TestSupport

@testable import TrendStore

/// Several sources of one series, merged by their priority order: every figure against a
/// slow reference written from the rule's words (``ReferenceMerge``).
@Suite("Sources merge by priority")
struct SourceMergeTests {
    @Test(
        "the issue's three rows: the watch ranks above the phone, so the day holds 12, not 11 or 21"
    )
    func issueExample() async throws {
        try await withTemporaryStore { store, _ in
            let base: Int64 = 1_763_683_200_000
            try await store.write(
                [Sample(startMilliseconds: base, endMilliseconds: base + 60_000, value: 10)],
                to: "e", unit: "kcal", source: "watch")
            try await store.write(
                [
                    Sample(startMilliseconds: base, endMilliseconds: base + 60_000, value: 7),
                    Sample(
                        startMilliseconds: base + 30_000, endMilliseconds: base + 90_000, value: 4),
                ], to: "e", unit: "kcal", source: "phone")
            let date = LocalDate(containing: Date(milliseconds: base), in: store.defaultTimeZone)
            // No order set: neither name says Watch or iPhone, so name order ranks phone first,
            // whose two samples (7 and 4) cover the watch's minute.
            #expect(try store.sources(of: "e").map(\.name) == ["phone", "watch"])
            #expect(try store.dayCurve(of: "e", on: date).cumulative[23] == 11)
            try await store.setSourcePriority(["watch", "phone"], for: "e")
            #expect(try store.dayCurve(of: "e", on: date).cumulative[23] == 12)
            let heatmap = try store.heatmap(of: ["e"], from: date, through: date)
            // The watch's sample and half of the second phone sample (not more than half: no count).
            #expect(heatmap.days[0].count == 1)
            #expect(heatmap.days[0].total == 12)
            #expect(try store.samples(of: "e", from: .distantPast, to: .distantFuture).count == 3)
            #expect(
                try store.samples(of: "e", from: .distantPast, to: .distantFuture, source: "phone")
                    .count == 2)
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test(
        "an order set by another process is read at the next query, though this one read the sources before"
    )
    func orderFromAnotherProcess() async throws {
        try await withTemporaryStore { store, directory in
            let base: Int64 = 1_763_683_200_000
            try await store.write(
                [Sample(startMilliseconds: base, endMilliseconds: base + 60_000, value: 10)],
                to: "e", unit: "kcal", source: "watch")
            try await store.write(
                [Sample(startMilliseconds: base, endMilliseconds: base + 60_000, value: 7)],
                to: "e", unit: "kcal", source: "phone")
            let date = LocalDate(containing: Date(milliseconds: base), in: store.defaultTimeZone)
            // A heatmap of a sparse series merges its sources' samples as it reads them. Read
            // twice in one snapshot: the second read takes the sources the first kept.
            let total = { try store.heatmap(of: ["e"], from: date, through: date).days[0].total }
            #expect(try total() == 7)
            #expect(try total() == 7)
            _ = try CommandLineTool.run([
                "sources", "priority", "e", "watch", "phone", "--store", directory.path,
            ])
            #expect(try total() == 10)
            #expect(try store.dayCurve(of: "e", on: date).cumulative[23] == 10)
            #expect(try store.sources(of: "e").map(\.name) == ["watch", "phone"])
        }
    }

    @Test("a priority change invalidates the series' cached aggregates and raises its change count")
    func priorityChangeInvalidates() async throws {
        try await withTemporaryStore { store, _ in
            let base: Int64 = 1_763_683_200_000
            try await store.write(
                [Sample(startMilliseconds: base, endMilliseconds: base + 60_000, value: 10)],
                to: "e", unit: "kcal", source: "watch")
            try await store.write(
                [Sample(startMilliseconds: base, endMilliseconds: base + 120_000, value: 6)],
                to: "e", unit: "kcal", source: "phone")
            let now = Date(milliseconds: base + 3_600_000)
            let cached = try await store.refreshedToday(of: "e", now: now)
            // phone first by name: the watch's minute is covered.
            #expect(cached.value.curve.total == 6)
            #expect(try store.cachedToday(of: "e") != nil)
            let before = try store.engine.changeCounts(of: ["e"]).1["e"]
            try await store.setSourcePriority(["watch"], for: "e")
            #expect(try store.cachedToday(of: "e") == nil)
            #expect(try store.engine.changeCounts(of: ["e"]).1["e"] != before)
            #expect(try store.todayCurve(of: "e", now: now).total == 10 + 3)
        }
    }

    @Test("a series written without sources keeps one default source and its figures")
    func defaultSource() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 3)], to: "e",
                unit: "kcal")
            let sources = try store.sources(of: "e")
            #expect(sources.map(\.name) == [""])
            #expect(sources.map(\.sampleCount) == [1])
            #expect(try store.sourcePriority(of: "e") == [])
        }
    }

    @Test(
        "the default order: watches, then iPhones, then the rest by name, the default source last")
    func defaultOrder() {
        #expect(
            SourcePriority.ranked(
                ["", "Strava", "Alice’s iPhone", "Connect", "Alice’s Apple Watch"], order: [])
                == ["Alice’s Apple Watch", "Alice’s iPhone", "Connect", "Strava", ""])
        #expect(
            SourcePriority.ranked(["", "Strava", "Alice’s iPhone"], order: ["Oura", "Strava"])
                == ["Strava", "Alice’s iPhone", ""])
    }

    /// The zones of CI's fixed-seed slice; the long mode (`Tools/source-merge.sh`) goes on
    /// through every zone the toolchain knows.
    static let zones = [
        "America/Los_Angeles", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns",
        "Pacific/Chatham", "Africa/Monrovia", "Europe/London", "Asia/Kathmandu",
    ]
    /// Trials to run: CI's 16, or `TRENDSTORE_SOURCE_TRIALS` in the long mode.
    static let trials =
        Int(ProcessInfo.processInfo.environment["TRENDSTORE_SOURCE_TRIALS"] ?? "") ?? 16

    @Test(
        "random overlapping sources, around offset changes, on both grids: day curves, today's curve and latest sample, heatmaps equal the reference; the store verifies",
        arguments: 0..<trials)
    func randomSources(trial: Int) async throws {
        try await Self.check(trial: trial)
    }

    /// One random trial: sources of random shapes around an offset change of a zone, written
    /// in random batches, the priority order set before, between or after the writes.
    static func check(trial: Int) async throws {
        var random = SampleGenerator(seed: 7_000 + trial)
        let known = TimeZone.knownTimeZoneIdentifiers.sorted()
        let identifier =
            trial < 16 ? zones[trial % zones.count] : known[(trial * 7919) % known.count]
        let zone = try #require(TimeZone(identifier: identifier))
        var options = StoreOptions()
        options.timeZone = zone
        options.rollupGrid = trial % 2 == 0 ? .quarterHour : .hour
        let year = identifier == "Africa/Monrovia" ? 1972 : 2000 + (trial * 13) % 27
        let center = ZoneCase(identifier: identifier, year: year, month: 3 + trial % 9).transition
        let names = ["Alice’s Apple Watch", "Alice’s iPhone", "Oura", ""]
        var sources: [String: [Sample]] = [:]
        for name in names.prefix(2 + trial % 3) {
            sources[name] = shape(of: name, around: center, random: &random)
        }
        // Equal intervals across sources: a few of one source's samples again in another.
        if let watch = sources[names[0]], !watch.isEmpty {
            for _ in 0..<20 {
                let copied = random.pick(watch)
                sources[names[1], default: []].append(
                    Sample(
                        startMilliseconds: copied.startMilliseconds,
                        endMilliseconds: copied.endMilliseconds, value: copied.value + 1))
            }
        }
        let order: [String] =
            random.integer(in: 0...2) == 0 ? [] : sources.keys.sorted().shuffledBy(&random)
        let when = random.integer(in: 0...2)  // 0 before, 1 between, 2 after the writes
        try await withTemporaryStore(options: options) { store, _ in
            try await store.declareSeries("e", unit: "kcal")
            if when == 0 { try await store.setSourcePriority(order, for: "e") }
            var batches: [(String, [Sample])] = []
            for name in sources.keys.sorted() {
                var rest = (sources[name] ?? []).shuffledBy(&random)
                while !rest.isEmpty {
                    let size = Int(random.integer(in: 1...Int64(max(1, rest.count / 3))))
                    batches.append((name, Array(rest.prefix(size))))
                    rest.removeFirst(min(size, rest.count))
                }
            }
            batches = batches.shuffledBy(&random)
            for (index, (name, batch)) in batches.enumerated() {
                try await store.write(batch, to: "e", unit: "kcal", source: name)
                if when == 1 && index == batches.count / 2 {
                    try await store.setSourcePriority(order, for: "e")
                }
            }
            if when == 2 { try await store.setSourcePriority(order, for: "e") }

            let ranked = SourcePriority.ranked(Array(sources.keys), order: order)
            #expect(try store.sources(of: "e").map(\.name) == ranked)
            let kept = ReferenceMerge.merge(ranked.map { unique(sources[$0] ?? []) })
            let pieces = ReferenceMerge.prorated(kept)
            // The trial is not vacuous: some sample is covered in part or whole.
            #expect(kept.contains { $0.value != $0.sample.value })
            let reference = ReferenceAggregator(zone: zone)
            let centerDate = reference.date(of: center)
            let context = "\(identifier) trial \(trial) order \(order) when \(when)"
            for offset in -2...2 {
                let date = centerDate.adding(days: offset)
                let curve = try store.dayCurve(of: "e", on: date)
                expectClose(
                    curve.cumulative,
                    reference.cumulativeCurve(of: date, samples: pieces), "\(context) \(date)")
            }
            let heatmap = try store.heatmap(
                of: ["e"], from: centerDate.adding(days: -2), through: centerDate.adding(days: 2))
            for day in heatmap.days {
                let starting = kept.filter {
                    reference.date(of: $0.sample.startMilliseconds) == day.date
                }
                #expect(day.count == starting.filter(\.counts).count, "\(context) \(day.date)")
                let total = starting.reduce(0.0) { $0 + $1.value }
                #expect(
                    approximatelyEqual(day.total, total, scale: 1e-3),
                    "\(context) \(day.date): \(day.total) vs \(total)")
            }
            for _ in 0..<8 {
                let now = center + random.integer(in: -2 * 86_400_000...2 * 86_400_000)
                let today = try store.todayCurve(of: "e", now: Date(milliseconds: now))
                expectClose(
                    today.cumulative,
                    reference.cumulativeCurve(of: today.date, samples: pieces, now: now),
                    "\(context) now \(now)")
                let all = sources.values.flatMap { unique($0) }
                #expect(
                    today.latestSampleTimestamp?.millisecondsSince1970
                        == reference.latestSampleTimestamp(samples: all, now: now), "\(context)")
            }
            #expect(try await store.verify().isHealthy, "\(context)")
        }
    }

    /// The samples of one source: a watch's minute stream with off-wrist gaps, a phone's
    /// 5–15-minute samples, a ring's long samples and instants, the default source's mix.
    static func shape(of name: String, around center: Int64, random: inout SampleGenerator)
        -> [Sample]
    {
        let from = center - 2 * 86_400_000
        var samples: [Sample] = []
        func value() -> Double {
            random.integer(in: 0...3) == 0
                ? Double(random.integer(in: 0...1_000_000)) / 7_777
                : Double(random.integer(in: 0...500)) / 10
        }
        switch name {
        case "Alice’s Apple Watch":
            var start = from + random.integer(in: 0...59_999)
            while start < center + 2 * 86_400_000 {
                if random.integer(in: 0...40) == 0 {
                    start += random.integer(in: 600_000...7_200_000)  // off the wrist
                }
                let length = 60_000 + random.integer(in: -2_000...2_000)
                samples.append(
                    Sample(
                        startMilliseconds: start, endMilliseconds: start + length, value: value()))
                start += length
            }
        case "Alice’s iPhone":
            var start = from
            while start < center + 2 * 86_400_000 {
                let length = random.integer(in: 300_000...900_000)
                samples.append(
                    Sample(
                        startMilliseconds: start, endMilliseconds: start + length, value: value()))
                start += length + random.integer(in: 0...1_800_000)
            }
        default:
            for _ in 0..<120 {
                let start = from + random.integer(in: 0...4 * 86_400_000)
                let length =
                    random.integer(in: 0...3) == 0 ? 0 : random.integer(in: 1...6 * 3_600_000)
                samples.append(
                    Sample(
                        startMilliseconds: start, endMilliseconds: start + length, value: value()))
            }
        }
        return samples
    }

    /// `samples` with one sample per identity (the last), as a write keeps them.
    static func unique(_ samples: [Sample]) -> [Sample] {
        var byIdentity: [[Int64]: Sample] = [:]
        for sample in samples {
            byIdentity[[sample.startMilliseconds, sample.endMilliseconds]] = sample
        }
        return Array(byIdentity.values)
    }
}

extension Array {
    /// The elements in an order drawn from `random`.
    fileprivate func shuffledBy(_ random: inout SampleGenerator) -> [Element] {
        var result = self
        for index in result.indices.reversed() where index > 0 {
            result.swapAt(index, Int(random.integer(in: 0...Int64(index))))
        }
        return result
    }
}
