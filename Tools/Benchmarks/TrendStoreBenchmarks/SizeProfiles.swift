import Foundation
import TrendStore

/// Bytes per sample for value profiles unlike the generator's, each beside its order-0
/// entropy per column (start gap, duration, value): the floor any coder of independent
/// symbols meets, to which the store adds its rollups.
///
/// The entropy of a column is estimated from its samples' frequencies, which cannot exceed
/// log2 of the sample count (19 bits for half a million): for values nearly all distinct
/// (random doubles) that estimate says nothing about the values' distribution, so the
/// profile states the entropy its generator gives them instead (marked `*`).
enum SizeProfiles {
    struct Profile {
        let name: String
        let samples: [Sample]
        /// The entropy of the values' distribution in bits, where the estimate from
        /// frequencies is capped by the sample count.
        var valueEntropy: Double? = nil
    }

    static func run(directory: URL) async throws -> String {
        var lines = [
            "profile".padding(toLength: 34, withPad: " ", startingAt: 0)
                + "samples   file B/s  sample pages  rollups  H(gap) H(dur) H(val) bits  floor+rollups  file÷floor  (file−empty)÷floor  backup÷floor"
        ]
        let emptyBytes = try emptyStoreBytes(directory: directory)
        for profile in profiles() {
            let store = try WritePathBenchmark.freshStore(
                "size-\(lines.count)", in: directory, durability: .none)
            for part in stride(from: 0, to: profile.samples.count, by: 100_000) {
                let end = min(part + 100_000, profile.samples.count)
                try await store.write(Array(profile.samples[part..<end]), to: "s", unit: "u")
            }
            let footprint = try store.footprint()
            let count = Double(profile.samples.count)
            let (gap, duration, counted) = entropies(profile.samples)
            let value = profile.valueEntropy ?? counted
            let floor = (gap + duration + value) / 8 + Double(footprint.rollupBytes) / count
            let perSample = Double(footprint.fileBytes) / count
            let added = Double(footprint.fileBytes - emptyBytes) / count
            let backup = directory.appendingPathComponent("size-\(lines.count)-backup")
            try? FileManager.default.removeItem(at: backup)
            try await store.backup(to: backup)
            let compacted = Double(try fileBytes(in: backup)) / count
            lines.append(
                profile.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format:
                            "%7d   %8.2f  %12.2f  %7.2f  %6.1f %6.1f %6.1f%@      %13.2f  %9.2f  %18.2f  %12.2f",
                        profile.samples.count, perSample,
                        Double(footprint.sampleBytes) / count,
                        Double(footprint.rollupBytes) / count, gap, duration, value,
                        profile.valueEntropy == nil ? " " : "*", floor, perSample / floor,
                        added / floor, compacted / floor))
        }
        lines.append(
            "B/s = bytes per sample; file = the whole data file (free and LMDB pages included); H = order-0 entropy in bits per sample"
                + " (* = of the generator's distribution: counted frequencies stop at log2 of the sample count); empty = a store with nothing written, \(emptyBytes) bytes; backup = the copy `TrendStore.backup(to:)` writes, every page in use (LMDB's free pages left out)."
        )
        return lines.joined(separator: "\n")
    }

    /// The data file of a store opened and closed with nothing written: LMDB's and the
    /// store's own pages, which a store pays once, whatever its series.
    private static func emptyStoreBytes(directory: URL) throws -> Int {
        let store = try WritePathBenchmark.freshStore(
            "size-empty", in: directory, durability: .none)
        return try store.footprint().fileBytes
    }

    /// The size of the data file of the store in `directory`.
    private static func fileBytes(in directory: URL) throws -> Int {
        let path = directory.appendingPathComponent("data.mdb").path
        return (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Order-0 entropy in bits per symbol of `symbols`, from their frequencies.
    static func entropy<T: Hashable>(_ symbols: [T]) -> Double {
        var counts: [T: Int] = [:]
        for symbol in symbols { counts[symbol, default: 0] += 1 }
        let total = Double(symbols.count)
        return counts.values.reduce(0) { sum, count in
            let p = Double(count) / total
            return sum - p * log2(p)
        }
    }

    /// Order-0 entropy in bits per sample of the start gaps, durations and value bits.
    static func entropies(_ samples: [Sample]) -> (Double, Double, Double) {
        var previousEnd = samples.first?.startMilliseconds ?? 0
        let gaps = samples.map { sample in
            defer { previousEnd = sample.endMilliseconds }
            return sample.startMilliseconds - previousEnd
        }
        return (
            entropy(gaps), entropy(samples.map(\.durationMilliseconds)),
            entropy(samples.map(\.value.bitPattern))
        )
    }

    /// The profiles, each about half a million samples unless its cadence is sparse.
    static func profiles() -> [Profile] {
        var random = Random(seed: 11)
        let start: Int64 = 1_700_006_400_000
        let minute: Int64 = 60_000
        func cadence(
            _ count: Int, every step: Int64, duration: Int64, _ value: (Int) -> Double
        ) -> [Sample] {
            (0..<count).map { index in
                let begin = start + Int64(index) * step
                return Sample(
                    startMilliseconds: begin, endMilliseconds: begin + duration, value: value(index)
                )
            }
        }
        var steps = 40
        var mass = 712
        var heart = 70
        // Steps are multiples of 2^-30, uniform over one unit: whatever the walk's whole part,
        // its fraction is uniform over 2^30 values, so the values' entropy is that of the
        // whole parts (a few hundred, well counted) plus 30 bits.
        func randomWalk() -> Profile {
            var walk = 0.0
            let samples = cadence(525_600, every: minute, duration: minute) { _ in
                walk += Double(random.below(1 << 30)) / Double(1 << 30) - 0.5
                return walk
            }
            return Profile(
                name: "random walk doubles (minute)", samples: samples,
                valueEntropy: entropy(samples.map { $0.value.rounded(.down) }) + 30)
        }
        // A watch's minute samples: ends and starts drift by milliseconds, durations jitter.
        var unalignedEnd = start
        let unaligned = (0..<525_600).map { _ -> (Int64, Int64) in
            let begin = unalignedEnd + (random.below(8) == 0 ? random.below(40) : 0)
            let end = begin + 52_000 + random.below(16_384)
            unalignedEnd = end
            return (begin, end)
        }
        return [
            Profile(
                name: "integers (steps, minute)",
                samples: cadence(525_600, every: minute, duration: minute) { _ in
                    steps = max(0, min(180, steps + Int(random.below(21)) - 10))
                    return Double(steps)
                }),
            Profile(
                name: "1 decimal (body mass, daily)",
                samples: cadence(3_650, every: 86_400_000, duration: 0) { _ in
                    mass += Int(random.below(7)) - 3
                    return Double(mass) / 10
                }),
            Profile(
                name: "3 decimals (energy, minute)",
                samples: cadence(525_600, every: minute, duration: minute) { _ in
                    Double(random.below(400)) / 1_000
                }),
            Profile(
                name: "4 decimals (energy, watch-like)",
                samples: unaligned.map { begin, end in
                    Sample(
                        startMilliseconds: begin, endMilliseconds: end,
                        value: Double(random.below(16_384)) / 10_000)
                }),
            Profile(
                name: "kJ → kcal (17 digits, minute)",
                samples: cadence(525_600, every: minute, duration: minute) { _ in
                    Double(random.below(2_000)) / 10 / 4.184
                }),
            Profile(
                name: "heart rate (5 s, instants)",
                samples: cadence(525_600, every: 5_000, duration: 0) { _ in
                    heart = max(40, min(200, heart + Int(random.below(5)) - 2))
                    return Double(heart)
                }),
            randomWalk(),
            // 2^53 equally likely integers scaled into 0..<1,000: 53 bits, less the 0.02 that
            // rounding above 512 loses (it merges about one neighbour in 40 there).
            Profile(
                name: "random full-precision doubles",
                samples: cadence(525_600, every: minute, duration: minute) { _ in
                    Double(random.next() >> 11) / Double(1 << 53) * 1_000
                }, valueEntropy: 52.98),
        ]
    }

    /// A small deterministic generator (PCG-style).
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
        mutating func below(_ bound: Int64) -> Int64 { Int64(next() % UInt64(bound)) }
    }
}
