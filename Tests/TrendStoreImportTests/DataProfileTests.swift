import Foundation
import Testing
import TrendStore
import TrendStoreGenerator

/// The benchmark profiles generate the shapes they describe.
@Suite("The generator's data profiles")
struct DataProfileTests {
    private static func energy(_ profile: DataProfile, seed: UInt64 = 7) -> [[Sample]] {
        var configuration = DatasetGenerator.Configuration(
            days: 60, endDate: LocalDate(year: 2026, month: 3, day: 31)!)
        configuration.timeZone = TimeZone(identifier: "Europe/Berlin")!
        profile.configure(&configuration, seed: seed)
        let generator = DatasetGenerator(configuration)
        return generator.dates.compactMap { date in
            generator.day(date).first { $0.series == "activeEnergy" }?.samples
        }
    }

    @Test(
        "irregular: 70% contiguous, gaps up to 6 s, 57 s ± 1.5 s, some overlaps and swaps, 4 decimals"
    )
    func irregular() {
        var contiguous = 0
        var gaps = 0
        var overlaps = 0
        var swaps = 0
        for day in Self.energy(.irregular) {
            for (previous, next) in zip(day, day.dropFirst()) {
                let gap = next.startMilliseconds - previous.endMilliseconds
                if next.startMilliseconds < previous.startMilliseconds {
                    swaps += 1
                } else if gap == 0 {
                    contiguous += 1
                } else if gap > 0 && gap <= 6_000 {
                    gaps += 1
                } else if gap < 0 {
                    overlaps += 1
                }
            }
            for sample in day where sample.endMilliseconds - sample.startMilliseconds < 60_000 {
                #expect(
                    (55_500...58_500).contains(sample.endMilliseconds - sample.startMilliseconds))
                #expect((sample.value * 10_000).rounded() / 10_000 == sample.value)
            }
        }
        let share = Double(contiguous) / Double(contiguous + gaps)
        #expect(share > 0.67 && share < 0.73, "\(share)")
        #expect(overlaps > 0 && swaps > 0)
    }

    @Test(
        "sparse: one energy sample a day (two on a 25-hour day); heartRate: readings 1–10 s apart")
    func sparseAndHeartRate() {
        for day in Self.energy(.sparse) { #expect((1...2).contains(day.count)) }
        var configuration = DatasetGenerator.Configuration(
            days: 3, endDate: LocalDate(year: 2026, month: 3, day: 31)!)
        DataProfile.heartRate.configure(&configuration, seed: 1)
        let generator = DatasetGenerator(configuration)
        for date in generator.dates {
            let heart = generator.day(date).first { $0.series == "heartRate" }?.samples ?? []
            #expect(heart.count > 8_000)
            for (previous, next) in zip(heart, heart.dropFirst()) {
                #expect(
                    (1_000...10_000).contains(next.startMilliseconds - previous.startMilliseconds))
            }
        }
    }

    @Test(
        "random: the same seed draws the same shape, another seed another; generated is unchanged")
    func randomAndGenerated() {
        #expect(Self.energy(.random, seed: 11) == Self.energy(.random, seed: 11))
        var first = DatasetGenerator.Configuration(days: 1, endDate: LocalDate("2026-01-01")!)
        var second = first
        let one = DataProfile.random.configure(&first, seed: 11)
        let other = DataProfile.random.configure(&second, seed: 12)
        #expect(one != other && first.shape != second.shape)
        // The default profile leaves the original generator's output as it was.
        var plain = DatasetGenerator.Configuration(days: 1, endDate: LocalDate("2026-01-01")!)
        DataProfile.generated.configure(&plain, seed: 5)
        #expect(plain.shape == SampleShape() && plain.energyDecimals == 3)
    }
}
