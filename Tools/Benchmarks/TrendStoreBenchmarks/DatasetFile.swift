import Foundation
import TrendStore
import TrendStoreGenerator

/// The generated dataset the suites load, written once as a CSV.
enum DatasetFile {
    /// Writes `days` days to `endDate` of the seed-7 dataset in `zone` to `name` in
    /// `directory` (with heart rate and a kind column when `heartRate`), and returns its path.
    static func write(
        _ name: String, in directory: URL, days: Int, endDate: LocalDate, zone: TimeZone,
        heartRate: Bool = false
    ) throws -> String {
        var configuration = DatasetGenerator.Configuration(days: days, endDate: endDate)
        configuration.seed = 7
        configuration.timeZone = zone
        if heartRate { configuration.heartRateSeries = "heartRate" }
        let csv = directory.appendingPathComponent(name).path
        let writer = try SampleCSVWriter(path: csv, includesKind: heartRate)
        try DatasetGenerator(configuration).generate { try writer.write($0) }
        try writer.close()
        return csv
    }
}
