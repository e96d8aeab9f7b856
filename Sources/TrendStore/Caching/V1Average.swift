/// The one average pattern for all days that schema v1 cached (`average-data-cache.json`),
/// under `v1/average/<series>`: read only by the migration that turns it into weekday
/// averages, and written only when a host imports such a file.
struct V1Average: Equatable {
    var pattern: [Double]
    var projectedTotal: Double

    /// The kind byte of its payloads.
    static let kind = AggregatePayload.Kind(rawValue: 4)

    /// The payload of this average, as the old app's cache file held it: imported, schema 1,
    /// computed at `computedAt` (ms), invalidated by no write.
    func payload(computedAt: Int64) -> AggregatePayload {
        var writer = ByteWriter(capacity: 208)
        HourlyPatternCoding.append(pattern, total: projectedTotal, to: &writer)
        return AggregatePayload(
            kind: Self.kind, schemaVersion: 1, imported: true, computedAt: computedAt,
            window: 0..<0, body: writer.bytes)
    }

    /// The average `payload` holds; `nil` when it holds another kind or does not decode.
    init?(_ payload: AggregatePayload) {
        guard payload.kind == Self.kind, let average = try? Self(body: payload.body) else {
            return nil
        }
        self = average
    }

    /// An average.
    init(pattern: [Double], projectedTotal: Double) {
        self.pattern = pattern
        self.projectedTotal = projectedTotal
    }

    /// The average a payload body holds; throws when it does not decode.
    init(body: [UInt8]) throws {
        self = try body.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            let (pattern, total) = try HourlyPatternCoding.read(&reader)
            guard let pattern, let total, reader.remaining == 0 else {
                throw AggregatePayload.Damage()
            }
            return V1Average(pattern: pattern, projectedTotal: total)
        }
    }
}
