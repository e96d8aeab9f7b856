import TrendStore

/// How every Strava reader turns an activity into a record: one sample in a series named
/// after its type, lasting its elapsed time, valued at its distance in metres.
enum StravaActivity {
    static func record(
        type: String, start: Int64, elapsedSeconds: Double, metres: Double, line: Int
    ) -> ParsedRecord {
        .sample(
            series: type, unit: "m", kind: .cumulative,
            sample: Sample(
                startMilliseconds: start,
                endMilliseconds: start + Int64((elapsedSeconds * 1000).rounded()), value: metres),
            line: line)
    }
}
