import Foundation
import Testing
import TrendStore
import TrendStoreGenerator

@Suite("The generator's heart rate")
struct HeartRateGeneratorTests {
    @Test(
        "readings every 5 s during the day's activity, every 5 min otherwise, discrete, whole beats"
    )
    func cadence() throws {
        var configuration = DatasetGenerator.Configuration(
            days: 30, endDate: LocalDate(year: 2026, month: 3, day: 31)!)
        configuration.timeZone = TimeZone(identifier: "Europe/Berlin")!
        configuration.heartRateSeries = "heartRate"
        let generator = DatasetGenerator(configuration)
        var checkedActiveDays = 0
        for date in generator.dates {
            let parts = generator.day(date)
            guard let heart = parts.first(where: { $0.series == "heartRate" }) else { continue }
            #expect(heart.kind == .discrete && heart.unit == "count/min")
            let activity = parts.first { $0.series != "heartRate" && $0.series != "activeEnergy" }?
                .samples.first
            for (previous, next) in zip(heart.samples, heart.samples.dropFirst()) {
                let active =
                    activity.map {
                        previous.startMilliseconds >= $0.startMilliseconds
                            && previous.startMilliseconds < $0.endMilliseconds
                    } ?? false
                #expect(
                    next.startMilliseconds - previous.startMilliseconds
                        == (active ? 5_000 : 300_000))
            }
            #expect(
                heart.samples.allSatisfy {
                    $0.value == $0.value.rounded() && $0.durationMilliseconds == 0
                })
            if activity != nil { checkedActiveDays += 1 }
        }
        #expect(checkedActiveDays > 10)
    }
}
