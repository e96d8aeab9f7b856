import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreGenerator

/// The generator follows the zone's local dates, also where a zone skips one (issue 32, item 14).
@Suite("Generated data in zones that skip a date")
struct GeneratorZoneTests {
    @Test("Samoa skipped 2011-12-30: nothing is generated for it and 2011-12-31 is generated once")
    func samoa() throws {
        var configuration = DatasetGenerator.Configuration(
            days: 5, endDate: LocalDate("2012-01-01")!)
        configuration.timeZone = TimeZone(identifier: "Pacific/Apia")!
        configuration.emptyDayFraction = 0
        var energy: [Sample] = []
        DatasetGenerator(configuration).generate { part in
            if part.series == configuration.energySeries { energy += part.samples }
        }
        energy.sort { $0.startMilliseconds < $1.startMilliseconds }
        // 2011-12-31 began at 2011-12-30T10:00Z (UTC+14); 2011-12-29 ended at the same
        // instant (UTC-10): every minute of 12-28, 12-29, 12-31 and 01-01 once, nothing more.
        let seam = Int64(1_325_239_200_000)
        #expect(
            energy.filter {
                $0.startMilliseconds >= seam - 86_400_000
                    && $0.startMilliseconds < seam + 86_400_000
            }.count <= 2 * 1_441)
        #expect(energy.count <= 4 * 1_441 && energy.count >= 4 * 1_439, "\(energy.count)")
        // Minute samples with millisecond jitter may touch; none starts a whole minute early.
        let early = zip(energy, energy.dropFirst()).filter {
            $1.startMilliseconds < $0.endMilliseconds - 30_000
        }
        #expect(early.isEmpty, "\(early.count) samples overlap their predecessor")
    }
}
