import TrendStore

/// How every Strava reader turns an activity into a record: one sample in a series named
/// after its type, lasting its elapsed time, valued at its distance in metres, from the
/// source `Strava`.
enum StravaActivity {
    /// The record of an activity; one that lasts longer than ``SampleRules/maximumDuration``
    /// (a recording never stopped, an elapsed time of 1e16 s) is ignored with its reason.
    static func record(
        type: String, start: Int64, elapsedSeconds: Double, metres: Double, line: Int
    ) -> ParsedRecord {
        // Compared as a double before any conversion: an elapsed time of 1e16 s is no Int64 of milliseconds.
        guard elapsedSeconds * 1000 <= Double(SampleRules.maximumDuration) else {
            return .ignored(reason: "lasts longer than 14 days (the longest a sample may)")
        }
        return .sample(
            series: type, unit: "m", kind: .cumulative, source: "Strava",
            sample: Sample(
                startMilliseconds: start,
                endMilliseconds: start + Int64((elapsedSeconds * 1000).rounded()), value: metres),
            line: line)
    }
}
