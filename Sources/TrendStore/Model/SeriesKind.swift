/// How the values of a series combine over time, fixed when the series is created: summed
/// and prorated over time (cumulative), or counted where they start (discrete).
///
/// ```swift
/// try store.write([SeriesSamples(series: "heartRate", unit: "count/min", kind: .discrete, samples: beats)])
/// ```
public enum SeriesKind: String, Sendable, Codable, CaseIterable {
    /// Values add up over time, such as active energy or steps: a sample's value spreads
    /// over its duration, and sums over any interval are prorated.
    case cumulative
    /// Values are measurements, such as heart rate or body mass: a sample belongs whole to
    /// the interval holding its start, and intervals report its average, minimum, maximum
    /// and most recent value.
    case discrete
}
