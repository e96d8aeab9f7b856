import Foundation
import TrendStore
import TrendStoreGenerator

/// The generated dataset the suites load, written once as a CSV.
enum DatasetFile {
    /// Writes `days` days to `endDate` of the seed-7 dataset of `profile` in `zone` to
    /// `name` in `directory` (with heart rate and a kind column when `heartRate` or the
    /// profile has it), prints the profile's shape, and returns the file's path.
    static func write(
        _ name: String, in directory: URL, days: Int, endDate: LocalDate, zone: TimeZone,
        heartRate: Bool = false, profile: DataProfile = .generated, profileSeed: UInt64 = 7
    ) throws -> String {
        var configuration = DatasetGenerator.Configuration(days: days, endDate: endDate)
        configuration.seed = 7
        configuration.timeZone = zone
        print(profile.configure(&configuration, seed: profileSeed))
        if heartRate { configuration.heartRateSeries = "heartRate" }
        let csv = directory.appendingPathComponent(name).path
        let writer = try SampleCSVWriter(
            path: csv, includesKind: configuration.heartRateSeries != nil)
        try DatasetGenerator(configuration).generate { try writer.write($0) }
        try writer.close()
        return csv
    }
}
